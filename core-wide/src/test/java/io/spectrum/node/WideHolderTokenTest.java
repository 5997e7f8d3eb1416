package io.spectrum.node;

import io.spectrum.wide.WideNode;

/** core-narrow's {@link HolderTokenTest} (two nodes over fake links) with both nodes WideNodes. */
class WideHolderTokenTest extends HolderTokenTest {
    static {
        NodeHarness.core = WideNode::new;
    }
}
