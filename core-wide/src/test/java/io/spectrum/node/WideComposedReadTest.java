package io.spectrum.node;

import io.spectrum.wide.WideNode;
import org.junit.jupiter.api.Disabled;

/** core-narrow's {@link ComposedReadTest}, run against WideNode (the same FWD surface, through the shared FwdServer). */
class WideComposedReadTest extends ComposedReadTest {
    static {
        NodeHarness.core = WideNode::new;
    }

    @Override
    @Disabled("WideNode has no retire (its vertices are never removed); NarrowNode-only, see its own run")
    void treeLargerThanTheFrameBuffer_isBackpressure_andTheNodeKeepsServing() {
    }
}
