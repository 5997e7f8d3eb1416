package io.spectrum.node;

import io.spectrum.wide.WideNode;

/** core-narrow's {@link FwdTerminusTest}, run against WideNode (the same FWD surface, through the shared FwdServer). */
class WideFwdTerminusTest extends FwdTerminusTest {
    static {
        NodeHarness.core = WideNode::new;
    }
}
