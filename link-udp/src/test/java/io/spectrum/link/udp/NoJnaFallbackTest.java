package io.spectrum.link.udp;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * JNA is an optional dependency of the UDP link: in a child JVM without it on the class path the
 * link falls back to the JDK channel by itself, says why, and carries frames both ways.
 */
class NoJnaFallbackTest {
    @Test
    void withoutJnaTheLinkFallsBackToTheChannelAndWorks() throws Exception {
        String cp = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> !Path.of(e).getFileName().toString().startsWith("jna"))
                .collect(Collectors.joining(File.pathSeparator));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(List.of(java, "-Dspectrum.udp.batch=16", "-cp", cp, NoJnaMain.class.getName()))
                .redirectErrorStream(true).start();
        String out;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            out = r.lines().collect(Collectors.joining("\n"));
        }
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child finished");
        System.out.println("no-JNA child: " + out.replace('\n', ' '));
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("batched=false,false"), out);
        assertTrue(out.contains("reason=") && out.contains("JNA"), out);
        assertTrue(out.endsWith("ok"), out);
    }
}
