package io.spectrum.bench.node;

import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.ValueListener;

/** Node sizing and a cheap listener shared by the node benchmarks. */
final class NodeBenchSupport {
    private NodeBenchSupport() {
    }

    static NarrowNode node(int subscribers) {
        return new NarrowNode(NodeConfig.builder().maxSubscribers(subscribers + 16).recordBytes(4096).build());
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
