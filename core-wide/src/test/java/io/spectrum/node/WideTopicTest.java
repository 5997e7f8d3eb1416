package io.spectrum.node;

import io.spectrum.wide.WideNode;
import org.junit.jupiter.api.Disabled;

/** core-narrow's {@link TopicTest}, run against WideNode (the same FWD surface, through the shared FwdServer). */
class WideTopicTest extends TopicTest {
    static {
        NodeHarness.core = WideNode::new;
    }

    /** A WIDE node names a vertex's last publisher on a READ's stamped answer; the owner is {@code $owner}. */
    @Override
    String ownerNamedOnReads() {
        return WideNode.OWNER_IDENTITY;
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
