package io.spectrum.node;

import io.spectrum.wide.WideNode;

/** core-narrow's {@link PeerSharesTest}, run against WideNode (the same FWD surface, through the shared FwdServer). */
class WidePeerSharesTest extends PeerSharesTest {
    static {
        NodeHarness.core = WideNode::new;
    }
}
