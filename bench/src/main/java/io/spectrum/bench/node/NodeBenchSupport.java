package io.spectrum.bench.node;

import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.ValueListener;

/** Node sizing and a cheap listener shared by the node benchmarks. */
final class NodeBenchSupport {
    private NodeBenchSupport() {
    }

    static NarrowNode node(int subscribers) {
        NodeConfig c = new NodeConfig();
        c.maxSubscribers = subscribers + 16;
        c.recordBytes = 4096;
        return new NarrowNode(c);
    }

    /** Counts deliveries; the count is read by the benchmark so the work cannot be elided. */
    static final class Counter implements ValueListener {
        long n;

        @Override
        public void onValue(io.spectrum.node.api.Subscription s, io.spectrum.node.api.VertexValue v, long seq, boolean stale) {
            n += v.length();
        }
    }
}
