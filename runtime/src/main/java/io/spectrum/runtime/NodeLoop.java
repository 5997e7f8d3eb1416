package io.spectrum.runtime;

import io.spectrum.link.Link;
import io.spectrum.node.NarrowNode;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * Drives one NarrowNode on its own thread: poll the links, run the node's timers, release answered
 * liveness pings, run the owner's periodic work and any submitted tasks; park 1 ms when idle. The
 * node is single-threaded, so everything that touches it goes through this thread
 * ({@link #submit}). {@link #close()} stops the thread, then closes the links (idempotent).
 */
public final class NodeLoop implements AutoCloseable {
    /** Periodic work on the node thread (publish demo values, print...). */
    public interface Step {
        void run(long nowNanos);
    }

    private final NarrowNode node;
    private final CapsProbe probe;
    private final List<Link> links = new ArrayList<>();
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final Step step;
    private final Thread thread;
    private volatile boolean running;
    private volatile boolean closed;

    public NodeLoop(String name, NarrowNode node, Step step) {
        this.node = node;
        this.probe = new CapsProbe(node, 8, 64);
        CapsProbe.stampBoot(node);
        this.step = step;
        this.thread = new Thread(this::loop, "node " + name);
        this.thread.setDaemon(true);
    }

    /** Attaches a link and wires the liveness ping into it (before {@link #start()}). */
    public void attach(Link link) {
        int code = node.attach(link);
        if (code != 0) {
            throw new IllegalStateException("cannot attach " + link.name() + ": code " + code);
        }
        probe.install(link);
        links.add(link);
    }

    public NarrowNode node() {
        return node;
    }

    public CapsProbe probe() {
        return probe;
    }

    public List<Link> links() {
        return links;
    }

    public void start() {
        running = true;
        thread.start();
    }

    /** Runs {@code task} on the node thread. */
    public void submit(Runnable task) {
        tasks.add(task);
    }

    private void loop() {
        while (running) {
            int handled = node.poll();
            node.tick();
            probe.sweep();
            if (step != null) {
                step.run(System.nanoTime());
            }
            for (Runnable t; (t = tasks.poll()) != null; ) {
                t.run();
            }
            if (handled == 0) {
                LockSupport.parkNanos(1_000_000L);
            }
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        running = false;
        if (thread.isAlive() && thread != Thread.currentThread()) {
            try {
                thread.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (Link l : links) {
            l.close();
        }
        node.close();
    }
}
