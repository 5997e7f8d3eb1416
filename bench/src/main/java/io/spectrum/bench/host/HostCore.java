package io.spectrum.bench.host;

import io.spectrum.link.Link;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.Node;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.runtime.NodeLoop;
import io.spectrum.wide.WideNode;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * The one switch of the host benchmarks: which core the host node is ({@code narrow} or
 * {@code wide}). Everything else is written against the {@link Node} API, so when WideNode serves
 * links (issue 10, branch widesrv) the wide runs need no other change than {@link #missing()}
 * answering null.
 */
enum HostCore {
    NARROW, WIDE;

    static HostCore parse(String s) {
        return valueOf(s.toUpperCase(java.util.Locale.ROOT));
    }

    Node newNode(NodeConfig config) {
        return this == NARROW ? new NarrowNode(config) : new WideNode(config);
    }

    /** Why this core cannot serve links in this build (one line), or null when it can. */
    String missing() {
        if (this == NARROW) {
            return null;
        }
        try (Node probe = newNode(WideNode.hostConfig().build())) {
            probe.attach(io.spectrum.bench.link.RingLink.pair(1, 2, 1, 16)[0]); // does this core attach links at all?
            return null;
        } catch (UnsupportedOperationException e) {
            return "WideNode does not serve links yet (attach is unsupported; issue 10's widesrv adds it)";
        }
    }

    /** A node serving its links on a thread of its own; tasks that touch the node go through {@link #submit}. */
    interface Served extends AutoCloseable {
        void submit(Runnable task);

        @Override
        void close();
    }

    /**
     * Starts serving {@code links} on {@code node}: the runtime's {@link NodeLoop} for the NARROW
     * core (its selector-woken agent, as a host runs it); a plain poll loop for the WIDE core until
     * the runtime drives a WideNode.
     */
    Served serve(String name, Node node, Link... links) {
        if (node instanceof NarrowNode narrow) {
            NodeLoop loop = new NodeLoop(name, narrow, now -> now + 3_600_000_000_000L);
            for (Link l : links) {
                loop.attach(l);
            }
            loop.start();
            return new Served() {
                @Override
                public void submit(Runnable task) {
                    loop.submit(task);
                }

                @Override
                public void close() {
                    loop.close();
                }
            };
        }
        return new PollLoop(name, node, links);
    }

    /** Drives any Node: poll + tick, parking 50 µs when a round found nothing. */
    static final class PollLoop implements Served {
        private final Node node;
        private final Thread thread;
        private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
        private volatile boolean running = true;

        PollLoop(String name, Node node, Link... links) {
            this.node = node;
            for (Link l : links) {
                int rc = node.attach(l);
                if (rc != 0) {
                    throw new IllegalStateException("attach " + l.name() + ": " + io.spectrum.wire.WireError.identity(rc));
                }
            }
            thread = new Thread(this::run, name);
            thread.setDaemon(true);
            thread.start();
        }

        private void run() {
            while (running) {
                Runnable t;
                while ((t = tasks.poll()) != null) {
                    t.run();
                }
                int n = node.poll();
                node.tick();
                if (n == 0) {
                    LockSupport.parkNanos(50_000);
                }
            }
        }

        @Override
        public void submit(Runnable task) {
            tasks.add(task);
        }

        @Override
        public void close() {
            running = false;
            try {
                thread.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            node.close();
        }
    }
}
