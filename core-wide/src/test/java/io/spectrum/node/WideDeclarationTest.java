package io.spectrum.node;

import io.spectrum.wide.WideNode;

/** core-narrow's {@link DeclarationTest}, run against WideNode (the same FWD surface, through the shared FwdServer). */
class WideDeclarationTest extends DeclarationTest {
    static {
        NodeHarness.core = WideNode::new;
    }
}
