package io.spectrum.node;

import io.spectrum.wide.WideNode;

/** core-narrow's {@link OriginTest}, run against WideNode. */
class WideOriginTest extends OriginTest {
    static {
        NodeHarness.core = WideNode::new;
    }
}
