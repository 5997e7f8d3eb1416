package io.spectrum.cli.demo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A {@code spectrum} subcommand in its own JVM (same java, same classpath as this one), its output
 * forwarded line by line with a prefix. Closing stops it (SIGTERM, then SIGKILL) with its children.
 */
public final class ChildJvm implements AutoCloseable {
    private final String name;
    private final Process process;
    private final Thread pump;

    /**
     * Starts {@code spectrum spectrumArgs} in a new JVM with {@code jvmOptions}, handing each output line to {@code
     * output} prefixed with {@code [name]}; an {@link IOException} when the process cannot start.
     */
    public ChildJvm(String name, List<String> jvmOptions, List<String> spectrumArgs, Consumer<String> output) throws IOException {
        this.name = name;
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("io.spectrum.cli.SpectrumCommand");
        cmd.addAll(spectrumArgs);
        process = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        // stdin stays open: a child run with --exit-with-stdin (board) exits when this JVM dies
        pump = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    output.accept("[" + name + "] " + line);
                }
            } catch (IOException e) {
                // the process ended
            }
        }, "output-" + name);
        pump.setDaemon(true);
        pump.start();
    }

    /** The prefix name of the child's output lines. */
    public String name() {
        return name;
    }

    /** The child process's id. */
    public long pid() {
        return process.pid();
    }

    /** True while the child process runs. */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** The exit code, or -1 while it runs. */
    public int exitCode() {
        return process.isAlive() ? -1 : process.exitValue();
    }

    @Override
    public void close() {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // already gone
        }
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
            pump.join(2000);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
