package io.spectrum.hil.hw;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The aarch64 Java runtime the emulated board runs on under qemu-user, built by
 * hw-tests/scripts/arm64-runtime.sh (cached in ${HOME}/.cache/spectrum/arm64, or
 * {@code -Dspectrum.hil.arm64Dir}).
 */
public final class Arm64Runtime {
    private Arm64Runtime() {
    }

    public static Path dir() {
        String d = System.getProperty("spectrum.hil.arm64Dir");
        return d != null ? Path.of(d) : Path.of(System.getProperty("user.home"), ".cache", "spectrum", "arm64");
    }

    /** The wrapper {@code DIR/bin/java} (qemu-aarch64-static -L sysroot runtime/bin/java). */
    public static Path java() {
        return dir().resolve("bin").resolve("java");
    }

    /**
     * Returns the runtime's java, running the build script first when it is missing. Throws with the
     * script's output when it cannot be built.
     */
    public static Path ensure(Path script, Path logFile) throws IOException, InterruptedException {
        Files.createDirectories(logFile.getParent());
        Process p = new ProcessBuilder("bash", script.toString(), dir().toString())
                .redirectErrorStream(true).redirectOutput(logFile.toFile()).start();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            Processes.stop(p);
            throw new IOException("arm64 runtime build timed out; log: " + logFile);
        }
        if (p.exitValue() != 0 || !Files.isExecutable(java())) {
            throw new IOException("arm64 runtime could not be built (exit " + p.exitValue() + "): "
                    + Files.readString(logFile, StandardCharsets.UTF_8));
        }
        return java();
    }
}
