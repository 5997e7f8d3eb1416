package io.spectrum.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * ≥ 10,000,000 mixed node operations in a child JVM under the Epsilon collector (no GC at all)
 * with a 32 MiB heap: the run can only finish if steady state allocates (next to) nothing.
 */
class EpsilonRunTest {
    @Test
    void tenMillionMixedOperationsUnderEpsilonWith32MiB() throws Exception {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        ProcessBuilder pb = new ProcessBuilder(List.of(java, "-XX:+UnlockExperimentalVMOptions", "-XX:+UseEpsilonGC",
                "-Xmx32m", "-Xms32m", "-cp", System.getProperty("java.class.path"), EpsilonMain.class.getName(), "10000000"));
        pb.redirectErrorStream(true);
        Process p = pb.start();
        try {
            boolean done = p.waitFor(180, TimeUnit.SECONDS);
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(done, "child JVM did not finish: " + out);
            System.out.println("epsilon child: " + out.trim());
            assertEquals(0, p.exitValue(), out);
            Matcher m = Pattern.compile("ops=(\\d+)").matcher(out);
            assertTrue(m.find(), out);
            assertTrue(Long.parseLong(m.group(1)) >= 10_000_000L, out);
        } finally {
            p.destroyForcibly();
        }
    }
}
