package io.spectrum.node;

import io.spectrum.wide.WideNode;

/**
 * core-narrow's {@link RouterTest} (client → router → router → board over memory links) with every
 * node a WideNode: the router's hook sits in the shared terminus, so WideNode forwards as NarrowNode does.
 */
class WideRouterTest extends RouterTest {
    static {
        NodeHarness.core = WideNode::new;
    }
}
