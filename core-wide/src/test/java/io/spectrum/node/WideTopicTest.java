package io.spectrum.node;

import io.spectrum.wide.WideNode;
import org.junit.jupiter.api.Disabled;

/** core-narrow's {@link TopicTest}, run against WideNode (the same FWD surface, through the shared FwdServer). */
class WideTopicTest extends TopicTest {
    static {
        NodeHarness.core = WideNode::new;
    }

    @Override
    @Disabled("WideNode has no retire (its vertices are never removed); NarrowNode-only, see its own run")
    void aRetiredAndRecreatedPathNeverSeesItsSequenceGoBack() {
    }

    @Override
    @Disabled("NarrowNode's lastPublisherLinkId/Peer; WideNode names its last publisher by identity "
            + "(WideNode#lastPublisher, asserted in WideServesLinksTest)")
    void lastPublisherIdentity_isTheCallersLinkAndPeer() {
    }
}
