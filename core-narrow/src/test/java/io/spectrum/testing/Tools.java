package io.spectrum.testing;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * External programs a few tests drive (chromium, qemu-user, systemd-analyze), looked up on PATH. A
 * test needing one calls {@link #require}: where the program is missing the test is skipped with the
 * reason named, so README's {@code mvn -B verify} passes on a machine with only a JDK and Maven;
 * under CI ({@code CI=true}, as {@code .ci/run} sets after installing every tool) a missing program
 * fails the test instead, so CI skips nothing.
 */
public final class Tools {
    private Tools() {
    }

    /** The program's path on PATH, or null. */
    public static Path onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            if (!dir.isEmpty()) {
                Path p = Path.of(dir, program);
                if (Files.isExecutable(p)) {
                    return p;
                }
            }
        }
        return null;
    }

    /**
     * The program's path; when it is not on PATH, skips the calling test ("{@code <program> not
     * installed: <what for> (apt-get install <debianPackage>; .ci/run installs it)"}), or fails it
     * under CI.
     */
    public static Path require(String program, String debianPackage, String whatFor) {
        Path p = onPath(program);
        if (p == null) {
            skipUnlessCi(program + " not installed: " + whatFor + " (apt-get install " + debianPackage
                    + "; .ci/run installs it)");
        }
        return p;
    }

    /** Skips the calling test with this reason, or fails it under CI ({@code CI=true}). */
    public static void skipUnlessCi(String reason) {
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new AssertionError("CI=true, and " + reason);
        }
        Assumptions.abort(reason);
    }
}
