package io.spectrum.host.runtime;

import io.spectrum.link.Link;
import io.spectrum.node.ServingNode;
import io.spectrum.runtime.NodeAgent;
import io.spectrum.runtime.NodeLoop;
import io.spectrum.time.Clock;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntSupplier;

/**
 * The host's node thread: its {@link NodeLoop} (links, node timers, liveness probe, the host's
 * periodic step, submitted tasks) and its lifecycle.
 *
 * <p>Threading: the loop's thread (or, with {@link #onCallerThread()}, the thread that runs its
 * duty cycles) is the only one that touches the node. Any thread may call {@link #call} (runs the
 * task there and waits for its result; runs it directly before {@link #start()} or when already on
 * the node thread) and {@link #submit} (queues it). The loop's deadlines read the injected clock.
 */
final class NodeThread {
    private final NodeLoop loop;
    private volatile boolean running;

    /** The loop named {@code "host " + name} over {@code node}, running {@code step} periodically on {@code clock}. */
    NodeThread(String name, ServingNode node, NodeAgent.Step step, Clock clock) {
        this.loop = new NodeLoop("host " + name, node, step, clock, NodeAgent.HOUSEKEEPING_NANOS, NodeLoop.SPIN_NANOS);
    }

    /** Attaches a link to the loop (node, liveness probe, wake-on-input). Node thread, or before start. */
    void attach(Link link) {
        loop.attach(link);
    }

    /** Whether the calling thread is the node thread. Any thread. */
    boolean isNodeThread() {
        return loop.isNodeThread();
    }

    /** Queues {@code task} for the node thread without waiting. Any thread. */
    void submit(Runnable task) {
        loop.submit(task);
    }

    /** Starts the node thread; call once. */
    void start() {
        running = true;
        loop.start();
    }

    /** The loop's agent (its readiness, the work that shares its thread). */
    io.spectrum.runtime.NodeAgent agent() {
        return loop.agent();
    }

    /** Instead of {@link #start()}: one duty cycle of the loop per call of the returned supplier, on the caller's thread. */
    IntSupplier onCallerThread() {
        return loop.agent().onCallerThread();
    }

    /** Stops the node thread, then closes the links and the node. */
    void close() {
        running = false;
        loop.close();
    }

    /** Runs {@code task} on the node thread and returns its result (directly when not started). Any thread. */
    <T> T call(Callable<T> task) {
        if (!running || loop.isNodeThread()) {
            try {
                return task.call();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        CompletableFuture<T> f = new CompletableFuture<>();
        loop.submit(() -> {
            try {
                f.complete(task.call());
            } catch (Throwable t) {
                f.completeExceptionally(t);
            }
        });
        try {
            return f.get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for the node thread");
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            throw c instanceof RuntimeException r ? r : new IllegalStateException(c);
        } catch (TimeoutException e) {
            throw new IllegalStateException("the node thread did not answer within 10 s");
        }
    }
}
