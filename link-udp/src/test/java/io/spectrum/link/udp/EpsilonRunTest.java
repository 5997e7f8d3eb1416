package io.spectrum.link.udp;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** 1 000 000 frames through a dialing and a listening UdpLink in a child JVM under Epsilon with a 24 MiB heap: no GC, no OOM. */
class EpsilonRunTest {
    @Test
    void aMillionFramesFitInATinyHeapWithoutAGarbageCollector() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(List.of(java, "-XX:+UnlockExperimentalVMOptions", "-XX:+UseEpsilonGC",
                "-Xmx24m", "-XX:-DoEscapeAnalysis", "-Dspectrum.udp.batch=" + UdpLinkConfig.DEFAULT_BATCH,
                "-cp", System.getProperty("java.class.path"),
                EpsilonUdpMain.class.getName(), "500000")).redirectErrorStream(true).start();
        String out;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            out = r.lines().collect(Collectors.joining("\n"));
        }
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "child finished");
        System.out.println("epsilon udp: " + out.replace('\n', ' '));
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("ok frames=1000000"), out);
    }
}
