package io.spectrum.node;

import io.spectrum.wide.WideNode;

/** core-narrow's {@link ExtensionsOnRequestTest}, run against WideNode (the same FWD surface, through the shared FwdServer). */
class WideExtensionsOnRequestTest extends ExtensionsOnRequestTest {
    static {
        NodeHarness.core = WideNode::new;
    }
}
