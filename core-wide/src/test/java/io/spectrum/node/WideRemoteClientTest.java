package io.spectrum.node;

import io.spectrum.wide.WideNode;

/** core-narrow's {@link RemoteClientTest} (two nodes over fake links) with both nodes WideNodes. */
class WideRemoteClientTest extends RemoteClientTest {
    static {
        NodeHarness.core = WideNode::new;
    }
}
