package io.spectrum.bench.host;

import io.spectrum.link.Link;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.ServingNode;
import io.spectrum.node.api.Node;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.runtime.NodeLoop;
import io.spectrum.wide.WideNode;

/**
 * The one switch of the host benchmarks: which core the host node is ({@code narrow} or
 * {@code wide}). Everything else is written against the {@link Node} API and the runtime, which
 * serves either core.
 */
enum HostCore {
    NARROW, WIDE;

    static HostCore parse(String s) {
        return valueOf(s.toUpperCase(java.util.Locale.ROOT));
    }

    Node newNode(NodeConfig config) {
        return this == NARROW ? new NarrowNode(config) : new WideNode(config);
    }

    /** A node serving its links on a thread of its own; tasks that touch the node go through {@link #submit}. */
    interface Served extends AutoCloseable {
        void submit(Runnable task);

        @Override
        void close();
    }

    /**
     * Starts serving {@code links} on {@code node} with the runtime's {@link NodeLoop} (its
     * selector-woken agent, as a host runs it); both cores are {@link ServingNode}s.
     */
    Served serve(String name, Node node, Link... links) {
        NodeLoop loop = new NodeLoop(name, (ServingNode) node, now -> now + 3_600_000_000_000L);
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
}
