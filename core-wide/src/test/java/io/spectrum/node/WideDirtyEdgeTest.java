package io.spectrum.node;

import io.spectrum.wide.WideNode;

/** core-narrow's {@link DirtyEdgeTest}, run against WideNode (its dirty edges and tick resend). */
class WideDirtyEdgeTest extends DirtyEdgeTest {
    static {
        NodeHarness.core = WideNode::new;
    }
}
