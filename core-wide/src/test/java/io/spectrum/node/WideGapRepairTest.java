package io.spectrum.node;

import io.spectrum.wide.WideNode;

/** core-narrow's {@link GapRepairTest} with both nodes WideNodes (a host following a host). */
class WideGapRepairTest extends GapRepairTest {
    static {
        NodeHarness.core = WideNode::new;
    }
}
