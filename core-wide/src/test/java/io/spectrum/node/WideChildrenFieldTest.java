package io.spectrum.node;

import io.spectrum.wide.WideNode;
import org.junit.jupiter.api.Disabled;

/** core-narrow's {@link ChildrenFieldTest}, run against WideNode (the same FWD surface, through the shared FwdServer). */
class WideChildrenFieldTest extends ChildrenFieldTest {
    static {
        NodeHarness.core = WideNode::new;
    }

    @Override
    @Disabled("WideNode has no retire (its vertices are never removed); NarrowNode-only, see its own run")
    void listingLargerThanTheFrameBuffer_isBackpressure() {
    }

    @Override
    @Disabled("WideNode has no retire (its vertices are never removed); NarrowNode-only, see its own run")
    void orderIsByteOrderOfNames_notCreationOrder() {
    }

    @Override
    @Disabled("WideNode has no retire (its vertices are never removed); NarrowNode-only, see its own run")
    void retiredVertexVanishes() {
    }
}
