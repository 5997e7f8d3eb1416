package io.spectrum.hil.hw;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * An ARM Java runtime the emulated board runs on under qemu-user: aarch64 ({@link #ARM64}, 64-bit
 * Raspberry Pi OS) or 32-bit armhf ({@link #ARMHF}, 32-bit Raspberry Pi OS), built by
 * hw-tests/scripts/arm-runtime.sh (cached in ${HOME}/.cache/spectrum/ARCH, or
 * {@code -Dspectrum.hil.ARCHDir}).
 */
public final class ArmRuntime {
    /** The aarch64 runtime (64-bit Raspberry Pi OS). */
    public static final ArmRuntime ARM64 = new ArmRuntime("arm64");
    /** The 32-bit armhf runtime (32-bit Raspberry Pi OS). */
    public static final ArmRuntime ARMHF = new ArmRuntime("armhf");

    private final String arch;

    private ArmRuntime(String arch) {
        this.arch = arch;
    }

    /** Debian's name of the architecture: arm64 or armhf. */
    public String arch() {
        return arch;
    }

    /** The runtime's directory: {@code -Dspectrum.hil.ARCHDir} when set, else {@code ~/.cache/spectrum/ARCH}. */
    public Path dir() {
        String d = System.getProperty("spectrum.hil." + arch + "Dir");
        return d != null ? Path.of(d) : Path.of(System.getProperty("user.home"), ".cache", "spectrum", arch);
    }

    /** The wrapper {@code DIR/bin/java} (qemu-user -L sysroot runtime/bin/java). */
    public Path java() {
        return dir().resolve("bin").resolve("java");
    }

    /**
     * Returns the runtime's java, running the build script ({@code arm-runtime.sh}) first when it is
     * missing. Throws with the script's output when it cannot be built.
     */
    public Path ensure(Path script, Path logFile) throws IOException, InterruptedException {
        Files.createDirectories(logFile.getParent());
        Process p = new ProcessBuilder("bash", script.toString(), arch, dir().toString())
                .redirectErrorStream(true).redirectOutput(logFile.toFile()).start();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            Processes.stop(p);
            throw new IOException(arch + " runtime build timed out; log: " + logFile);
        }
        if (p.exitValue() != 0 || !Files.isExecutable(java())) {
            throw new IOException(arch + " runtime could not be built (exit " + p.exitValue() + "): "
                    + Files.readString(logFile, StandardCharsets.UTF_8));
        }
        return java();
    }
}
