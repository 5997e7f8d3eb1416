package io.spectrum.node;

import io.spectrum.wide.WideNode;
import org.junit.jupiter.api.Disabled;

/** core-narrow's {@link Rfc0035Test}, run against WideNode (the same FWD surface, through the shared FwdServer). */
class WideRfc0035Test extends Rfc0035Test {
    static {
        NodeHarness.core = WideNode::new;
    }

    @Override
    @Disabled("WideNode has no retire (its vertices are never removed); NarrowNode-only, see its own run")
    void rfc0035_s9_3_retirementOfTheProducerVertexReapsItsSlots() {
    }
}
