package io.spectrum.board;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** A `spectrum ...` command in a child JVM, with its output lines collected. Killed on close. */
public final class NodeChild implements AutoCloseable {
    final Process process;
    final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
    final List<String> all = new ArrayList<>();

    /** {@code spectrum <args>} in a child JVM. */
    public NodeChild(String... args) throws IOException {
        this(List.of(args), "io.spectrum.cli.SpectrumCommand");
    }

    /** {@code mainClass <args>} in a child JVM with the test classpath. */
    public NodeChild(List<String> args, String mainClass) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(mainClass);
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.redirectErrorStream(true);
        process = pb.start();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    synchronized (all) {
                        all.add(line);
                    }
                    lines.add(line);
                }
            } catch (IOException e) {
                // process gone
            }
        }, "child-output");
        reader.setDaemon(true);
        reader.start();
    }

    /** Waits for an output line matching {@code p}; null after {@code seconds}. */
    public String await(Predicate<String> p, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < deadline) {
            String line = lines.poll(100, TimeUnit.MILLISECONDS);
            if (line != null && p.test(line)) {
                return line;
            }
        }
        return null;
    }

    public String output() {
        synchronized (all) {
            return String.join("\n", all);
        }
    }

    /** SIGKILL: a crash, no shutdown hooks. */
    void crash() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
