package io.spectrum.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * How a node process (board, host) lives: until Ctrl-C (a shutdown hook closes the node and its
 * links), until {@code --duration} seconds pass, or, with {@code --exit-with-stdin}, until the
 * process that started it closes its stdin.
 */
public final class NodeProcess {
    private NodeProcess() {
    }

    /**
     * Blocks until Ctrl-C, until {@code durationSeconds} pass (0 or less: no limit) or, with {@code exitWithStdin},
     * until stdin closes; then closes {@code node} (once, errors ignored).
     */
    public static void runUntilStopped(AutoCloseable node, double durationSeconds, boolean exitWithStdin)
            throws InterruptedException {
        CountDownLatch stop = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            closeQuietly(node);
            stop.countDown();
        }, "spectrum-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        if (exitWithStdin) {
            watchStdin(stop);
        }
        if (durationSeconds > 0) {
            stop.await((long) (durationSeconds * 1000), TimeUnit.MILLISECONDS);
        } else {
            stop.await();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run; it closes the node
            return;
        }
        closeQuietly(node);
    }

    /** Counts {@code stop} down when stdin closes (a daemon thread reads and ignores the input). */
    public static void watchStdin(CountDownLatch stop) {
        Thread watch = new Thread(() -> {
            try (InputStream in = System.in) {
                while (in.read() >= 0) {
                    // ignore input
                }
            } catch (IOException e) {
                // treated as closed
            }
            stop.countDown();
        }, "stdin-watch");
        watch.setDaemon(true);
        watch.start();
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // closing on the way out
        }
    }
}
