package io.spectrum.board.io;

import io.spectrum.board.app.AppVertex;
import io.spectrum.board.app.BoardContext;
import io.spectrum.board.app.Signal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A command's output every period (the fallback for what has no source kind): run on a thread of
 * its own, never on the node's loop; its standard output is published as {@link FileSource} does.
 * A command that runs past the period or exits non-zero, or whose output is not that, is a failed
 * read: the vertex is marked stale with the reason ({@link SourceHealth}).
 */
public final class CommandSource implements Binding {
    private final List<String> command;
    private final long periodMillis;
    private volatile String output;
    private volatile String failure;
    private SourceHealth health;
    private Thread thread;

    /** Runs {@code command} (program and arguments, no shell) every {@code periodMillis}, on a thread of its own. */
    public CommandSource(List<String> command, long periodMillis) {
        this.command = List.copyOf(command);
        this.periodMillis = periodMillis;
    }

    @Override
    public void open(BoardContext board, AppVertex vertex) {
        health = new SourceHealth(describe());
        Signal publish = board.signal(() -> publish(vertex));
        io.spectrum.time.Sleeper sleeper = board.sleeper();
        Thread t = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                runOnce();
                publish.raise();
                try {
                    sleeper.sleepNanos(periodMillis * 1_000_000L);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "spectrum-command " + vertex.path());
        t.setDaemon(true);
        t.start();
        thread = t;
    }

    @Override
    public void close() {
        if (thread != null) {
            thread.interrupt();
        }
    }

    private void runOnce() {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(false)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readNBytes(4096);
            if (!p.waitFor(Math.max(periodMillis, 1000), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new IOException("ran longer than its period");
            }
            if (p.exitValue() != 0) {
                throw new IOException("exited with " + p.exitValue());
            }
            output = new String(out, StandardCharsets.UTF_8).trim();
            failure = null;
        } catch (IOException e) {
            failure = e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void publish(AppVertex vertex) {
        String f = failure;
        try {
            if (f != null) {
                throw new IOException(f);
            }
            String o = output;
            if (o != null) {
                FileSource.publish(vertex, o);
            }
            health.worked(vertex);
        } catch (IOException e) {
            health.failed(vertex, e.getMessage());
        }
    }

    @Override
    public String describe() {
        return "command " + String.join(" ", command);
    }
}
