package io.spectrum.bus.state;

import io.spectrum.wire.BusError;

import static io.spectrum.bus.state.BusFixture.bytes;
import static io.spectrum.bus.state.BusFixture.code;
import static io.spectrum.bus.state.BusFixture.onlyTopic;
import static io.spectrum.bus.state.BusFixture.p;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import io.spectrum.bus.protocol.ArtifactRef;
import io.spectrum.bus.protocol.Attachment;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.bus.protocol.BusMessage;
import io.spectrum.bus.protocol.BusStats;
import io.spectrum.bus.protocol.Retention;
import io.spectrum.bus.protocol.SubscriptionMode;

/** Allocate/seal/open/retain/release, owner ids and roots (F-13, F-14, F-20, F-21; seed 001 §8). */
class ArtifactOwnershipTest extends BusTest {
    final BusFixture f = fixture();
    final BusSession pub = f.connect("pub");
    final BusSession sub = f.connect("sub");

    @Test
    void allocateWriteSealOpen_roundTrip() throws Exception {
        Replies.Allocated a = pub.allocate(5, "text/plain");
        assertEquals("own-1", a.ownerId());
        assertEquals(5, a.staged().byteLength());
        f.store.write(a.staged().artifactId(), bytes("hello"));
        Replies.Sealed s = pub.seal(a.staged().artifactId(), 1, a.ownerId(), null);
        assertEquals(a.ownerId(), s.ownerId());
        assertEquals(MemoryArtifactStore.sha256(bytes("hello")), s.ref().digest());
        assertEquals("sealed/" + s.ref().artifactId(), pub.open(s.ref(), s.ownerId()));
        assertEquals(1, f.bus.stats().roots());
        assertEquals(1, f.bus.stats().owners());
        assertEquals(1, f.bus.stats().sealedArtifacts());
    }

    @Test
    void sealChecksLengthAndDigest_andTheFailedWriterIsGone() throws Exception {
        Replies.Allocated shortOne = pub.allocate(10, "text/plain");
        f.store.write(shortOne.staged().artifactId(), bytes("abc"));
        assertEquals(BusError.ARTIFACT_MISMATCH,
                code(() -> pub.seal(shortOne.staged().artifactId(), 1, shortOne.ownerId(), null)));
        Replies.Allocated wrong = pub.allocate(3, "text/plain");
        f.store.write(wrong.staged().artifactId(), bytes("abc"));
        assertEquals(BusError.ARTIFACT_MISMATCH,
                code(() -> pub.seal(wrong.staged().artifactId(), 1, wrong.ownerId(), "00".repeat(32))));
        assertEquals(0, f.bus.stats().owners());
        assertEquals(0, f.bus.stats().storeBytes());
        assertEquals(0, pub.release(List.of(wrong.ownerId())));
    }

    @Test
    void F_21_sealingTwiceIsOwnerInvalid() throws Exception {
        Replies.Allocated a = pub.allocate(2, "x/y");
        f.store.write(a.staged().artifactId(), bytes("hi"));
        pub.seal(a.staged().artifactId(), 1, a.ownerId(), null);
        assertEquals(BusError.OWNER_INVALID, code(() -> pub.seal(a.staged().artifactId(), 1, a.ownerId(), null)));
        assertEquals(BusError.OWNER_INVALID, code(() -> pub.seal(a.staged().artifactId(), 1, "own-9", null)));
        assertEquals(BusError.OWNER_INVALID, code(() -> sub.seal(a.staged().artifactId(), 1, a.ownerId(), null)));
    }

    @Test
    void F_21_publishingOnesOwnUnsealedWriterSealsItOnSend_andTheWriterBecomesAHold() throws Exception {
        pub.declare("t", Retention.NONE);
        sub.subscribe("t", SubscriptionMode.BOUNDED, 4, 4, false);
        Replies.Allocated a = pub.allocate(5, "image/raw");
        f.store.write(a.staged().artifactId(), bytes("pixel"));
        ArtifactRef unsealed = new ArtifactRef(f.store.storeId(), a.staged().artifactId(), 1, 5, "");
        assertEquals(BusError.ARTIFACT_UNSEALED, code(() -> pub.open(unsealed, a.ownerId())));
        pub.publish("t", p(1), List.of(new Attachment("frame", unsealed, a.ownerId())));
        BusMessage.TopicMessage m = onlyTopic(sub);
        ArtifactRef sealed = m.attachments().get(0).ref();
        assertEquals(MemoryArtifactStore.sha256(bytes("pixel")), sealed.digest());
        assertEquals("pixel", f.readBytes(m.attachments().get(0)));
        // the writer is now a hold on the sealed object; it cannot be sealed again
        assertEquals(BusError.OWNER_INVALID, code(() -> pub.seal(a.staged().artifactId(), 1, a.ownerId(), null)));
        assertTrue(pub.open(sealed, a.ownerId()).startsWith("sealed/"));
        assertEquals(2, f.bus.stats().roots());
    }

    @Test
    void F_21_aRefusedPublishLeavesTheWriterUnsealed() throws Exception {
        pub.declare("t", Retention.NONE);
        sub.subscribe("t", SubscriptionMode.BOUNDED, 1, 1, false);
        pub.publish("t", p(1), List.of());
        onlyTopic(sub);
        pub.publish("t", p(2), List.of());
        Replies.Allocated a = pub.allocate(5, "image/raw");
        f.store.write(a.staged().artifactId(), bytes("pixel"));
        ArtifactRef unsealed = new ArtifactRef(f.store.storeId(), a.staged().artifactId(), 1, 5, "");
        assertEquals(BusError.BACKPRESSURE,
                code(() -> pub.publish("t", p(3), List.of(new Attachment("frame", unsealed, a.ownerId())))));
        assertTrue(f.store.staged(a.staged().artifactId()));
        assertEquals(0, f.bus.stats().sealedArtifacts());
        assertEquals("own-1", pub.seal(a.staged().artifactId(), 1, a.ownerId(), null).ownerId());
    }

    @Test
    void F_21_aSealOnSendWithTheWrongDigestIsArtifactMismatch_andNothingIsPublished() throws Exception {
        pub.declare("t", Retention.NONE);
        sub.subscribe("t", SubscriptionMode.BOUNDED, 4, 4, false);
        Replies.Allocated a = pub.allocate(5, "image/raw");
        f.store.write(a.staged().artifactId(), bytes("pixel"));
        ArtifactRef claim = new ArtifactRef(f.store.storeId(), a.staged().artifactId(), 1, 5, "ab".repeat(32));
        assertEquals(BusError.ARTIFACT_MISMATCH,
                code(() -> pub.publish("t", p(1), List.of(new Attachment("frame", claim, a.ownerId())))));
        assertEquals(List.of(), BusFixture.topicMessages(sub));
        assertEquals(0, f.bus.stats().owners());
        assertEquals(1, pub.publish("t", p(1), List.of()).topicSequence());
    }

    @Test
    void F26_F_20_forwardingNeedsTheSourceOwnerStillLive() throws Exception {
        pub.declare("t", Retention.NONE);
        BusSession fwd = f.connect("fwd");
        BusSession end = f.connect("end");
        fwd.subscribe("t", SubscriptionMode.BOUNDED, 4, 4, false);
        fwd.declare("out", Retention.NONE);
        end.subscribe("out", SubscriptionMode.BOUNDED, 4, 4, false);
        BusFixture.Held h = f.artifact(pub, "payload-bytes");
        pub.publish("t", p(1), List.of(h.as("a")));
        pub.publish("t", p(2), List.of(h.as("a")));
        pub.release(List.of(h.ownerId()));
        List<BusMessage.TopicMessage> in = BusFixture.topicMessages(fwd);
        Attachment first = in.get(0).attachments().get(0);
        fwd.consumed(List.of(in.get(0).deliveryId()));
        assertEquals(BusError.OWNER_INVALID, code(() -> fwd.publish("out", p(1), List.of(first))));
        Attachment second = in.get(1).attachments().get(0);
        assertEquals(1, fwd.publish("out", p(1), List.of(second)).topicSequence());
        fwd.consumed(List.of(in.get(1).deliveryId()));
        BusMessage.TopicMessage got = onlyTopic(end);
        assertEquals("payload-bytes", f.readBytes(got.attachments().get(0)));
        assertEquals(got.deliveryId(), got.attachments().get(0).ownerId());
    }

    @Test
    void F_20_retainNeedsALiveSourceOwner_andOutlivesIt() throws Exception {
        pub.declare("t", Retention.NONE);
        sub.subscribe("t", SubscriptionMode.BOUNDED, 4, 4, false);
        BusFixture.Held h = f.artifact(pub, "keep");
        pub.publish("t", p(1), List.of(h.as("a")));
        pub.release(List.of(h.ownerId()));
        BusMessage.TopicMessage m = onlyTopic(sub);
        ArtifactRef ref = m.attachments().get(0).ref();
        String hold = sub.retain(ref, m.deliveryId());
        assertEquals("own-1", hold);
        sub.consumed(List.of(m.deliveryId()));
        assertEquals(BusError.OWNER_INVALID, code(() -> sub.retain(ref, m.deliveryId())));
        assertEquals("keep", f.readBytes(m.attachments().get(0)));
        assertEquals(1, f.bus.stats().roots());
        assertEquals(1, sub.release(List.of(hold)));
        assertEquals(0, f.bus.stats().sealedArtifacts());
    }

    @Test
    void F_13_releaseIdsAreWatermarked_andTheWholeBatchIsRefusedOnABadId() throws Exception {
        BusFixture.Held a = f.artifact(pub, "a");
        BusFixture.Held b = f.artifact(pub, "b");
        BusStats before = f.bus.stats();
        assertEquals(BusError.OWNER_INVALID, code(() -> pub.release(List.of(a.ownerId(), "own-99"))));
        assertEquals(BusError.OWNER_INVALID, code(() -> pub.release(List.of(a.ownerId(), "dlv-1"))));
        assertEquals(BusError.OWNER_INVALID, code(() -> pub.consumed(List.of(a.ownerId()))));
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> pub.release(List.of())));
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> pub.release(java.util.Collections.nCopies(65, a.ownerId()))));
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> pub.release(List.of("own-01"))));
        assertEquals(before, f.bus.stats());
        assertEquals(1, pub.release(List.of(a.ownerId(), a.ownerId())));
        assertEquals(0, pub.release(List.of(a.ownerId())));
        assertEquals(1, pub.release(List.of(a.ownerId(), b.ownerId())));
        assertEquals(0, f.bus.stats().roots());
        assertEquals(0, f.bus.stats().sealedArtifacts());
    }

    @Test
    void F_13_consumedIdsAreWatermarkedToo() throws Exception {
        pub.declare("t", Retention.NONE);
        sub.subscribe("t", SubscriptionMode.BOUNDED, 4, 4, false);
        pub.publish("t", p(1), List.of());
        BusMessage.TopicMessage m = onlyTopic(sub);
        assertEquals(BusError.OWNER_INVALID, code(() -> sub.consumed(List.of(m.deliveryId(), "dlv-2"))));
        assertEquals(1, f.bus.stats().owners());
        assertEquals(1, sub.consumed(List.of(m.deliveryId(), m.deliveryId())));
        assertEquals(0, sub.consumed(List.of(m.deliveryId())));
    }

    @Test
    void F_14_ownerIdsAreScopedToTheirConnection() throws Exception {
        BusFixture.Held mine = f.artifact(pub, "mine");
        BusFixture.Held theirs = f.artifact(sub, "theirs");
        assertEquals("own-1", mine.ownerId());
        assertEquals("own-1", theirs.ownerId());
        // the same literal names sub's own owner, which does not root pub's object
        assertEquals(BusError.OWNER_INVALID, code(() -> sub.open(mine.ref(), "own-1")));
        assertEquals(1, sub.release(List.of("own-1")));
        assertEquals("mine", new String(f.store.read(mine.ref().artifactId())));
        assertEquals(1, f.bus.stats().sealedArtifacts());
    }

    @Test
    void F_14_aRefFromAnotherStoreRunIsArtifactGone_andAWrongLengthIsMismatch() throws Exception {
        BusFixture.Held h = f.artifact(pub, "abc");
        ArtifactRef stale = new ArtifactRef("mem-0", h.ref().artifactId(), 1, 3, h.ref().digest());
        assertEquals(BusError.ARTIFACT_GONE, code(() -> pub.open(stale, h.ownerId())));
        ArtifactRef otherGen = new ArtifactRef(h.ref().storeId(), h.ref().artifactId(), 2, 3, h.ref().digest());
        assertEquals(BusError.ARTIFACT_GONE, code(() -> pub.open(otherGen, h.ownerId())));
        ArtifactRef longer = new ArtifactRef(h.ref().storeId(), h.ref().artifactId(), 1, 4, h.ref().digest());
        assertEquals(BusError.ARTIFACT_MISMATCH, code(() -> pub.open(longer, h.ownerId())));
    }

    @Test
    void F_3_aMixedGoodAndBadAttachmentListIsRefusedWithNoTrace() throws Exception {
        pub.declare("t", Retention.LATEST);
        sub.subscribe("t", SubscriptionMode.BOUNDED, 4, 4, false);
        BusFixture.Held good = f.artifact(pub, "good");
        BusStats before = f.bus.stats();
        assertEquals(BusError.OWNER_INVALID,
                code(() -> pub.publish("t", p(1), List.of(good.as("a"), new Attachment("b", good.ref(), "own-7")))));
        assertEquals(BusError.INVALID_ENVELOPE,
                code(() -> pub.publish("t", p(1), List.of(good.as("a"), good.as("a")))));
        assertEquals(before, f.bus.stats());
        assertEquals(1, pub.publish("t", p(1), List.of(good.as("a"), good.as("b"))).topicSequence());
        // hold + subscriber + retention, one root each for the object named twice
        assertEquals(3, f.bus.stats().roots());
    }

    @Test
    void ownerBudgetLeavesTheRpcReserve() throws Exception {
        BusFixture small = fixture(BusLimits.builder().maxOwnersPerClient(4).reservedRpcOwners(1).build());
        BusSession c = small.connect("c");
        for (int i = 0; i < 3; i++) {
            c.allocate(1, "x/y");
        }
        assertEquals(BusError.QUOTA_EXCEEDED, code(() -> c.allocate(1, "x/y")));
        assertEquals(3, small.bus.stats().owners());
    }

    @Test
    void ownerBudgetHoldsBackTopicDeliveriesUntilAnOwnerGoes() throws Exception {
        BusFixture small = fixture(BusLimits.builder().maxOwnersPerClient(4).reservedRpcOwners(1).build());
        BusSession p = small.connect("p");
        BusSession s = small.connect("s");
        p.declare("t", Retention.NONE);
        s.subscribe("t", SubscriptionMode.BOUNDED, 8, 8, false);
        String w = s.allocate(1, "x/y").ownerId();
        for (int i = 0; i < 4; i++) {
            p.publish("t", p(i), List.of());
        }
        assertEquals(2, BusFixture.topicMessages(s).size());
        s.release(List.of(w));
        assertEquals(1, BusFixture.topicMessages(s).size());
    }

    @Test
    void disconnectAbandonsUnsealedWritersAndReleasesHolds() throws Exception {
        Replies.Allocated a = pub.allocate(4, "x/y");
        BusFixture.Held h = f.artifact(pub, "held");
        assertTrue(f.store.staged(a.staged().artifactId()));
        pub.close();
        assertFalse(f.store.staged(a.staged().artifactId()));
        assertEquals(0, f.bus.stats().storeBytes());
        assertEquals(0, f.bus.stats().roots());
        assertEquals(0, f.bus.stats().owners());
        assertEquals(null, f.store.read(h.ref().artifactId()));
        assertEquals(BusError.ROUTER_LOST, code(() -> pub.allocate(1, "x/y")));
    }

    @Test
    void allocateValidatesItsRequest() throws Exception {
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> pub.allocate(0, "x/y")));
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> pub.allocate(1, "")));
        assertEquals(BusError.INVALID_ENVELOPE, code(() -> pub.allocate(1, "x".repeat(128))));
        assertEquals(BusError.QUOTA_EXCEEDED, code(() -> pub.allocate(129L << 20, "x/y")));
        assertEquals(0, f.bus.stats().owners());
    }

    @Test
    void F_21_sealOnSendWorksForCallsToo_andTheServiceReadsTheBytes() throws Exception {
        BusSession svc = f.connect("svc");
        svc.register("store.put", 4, 4);
        Replies.Allocated a = pub.allocate(3, "x/y");
        f.store.write(a.staged().artifactId(), bytes("arg"));
        ArtifactRef unsealed = new ArtifactRef(f.store.storeId(), a.staged().artifactId(), 1, 3, "");
        pub.call("call-1", "store.put", null, "Put", "{}", List.of(new Attachment("blob", unsealed, a.ownerId())));
        BusMessage.RpcRequest req = (BusMessage.RpcRequest) svc.poll();
        assertEquals("arg", f.readBytes(req.attachments().get(0)));
        assertEquals(BusError.OWNER_INVALID, code(() -> pub.seal(a.staged().artifactId(), 1, a.ownerId(), null)));
    }

    @Test
    void releasingAnUnsealedWriterAbandonsItsStaging() throws Exception {
        Replies.Allocated a = pub.allocate(8, "x/y");
        assertEquals(8, f.bus.stats().storeBytes());
        assertEquals(1, pub.release(List.of(a.ownerId())));
        assertFalse(f.store.staged(a.staged().artifactId()));
        assertEquals(0, f.bus.stats().storeBytes());
        assertEquals(BusError.OWNER_INVALID, code(() -> pub.seal(a.staged().artifactId(), 1, a.ownerId(), null)));
    }

    @Test
    void theOperatorListingNamesTheTopicsWhoseRetainedValueCarriesEachArtifact() throws Exception {
        pub.declare("b.last", Retention.LATEST);
        pub.declare("a.last", Retention.LATEST);
        pub.declare("live", Retention.NONE);
        sub.subscribe("live", SubscriptionMode.BOUNDED, 4, 4, false);
        Replies.Allocated a = pub.allocate(2, "x/y");
        f.store.write(a.staged().artifactId(), bytes("hi"));
        Replies.Sealed kept = pub.seal(a.staged().artifactId(), 1, a.ownerId(), null);
        Replies.Allocated b = pub.allocate(3, "x/y");
        f.store.write(b.staged().artifactId(), bytes("abc"));
        Replies.Sealed passing = pub.seal(b.staged().artifactId(), 1, b.ownerId(), null);
        pub.publish("b.last", p(1), List.of(new Attachment("f", kept.ref(), kept.ownerId())));
        pub.publish("a.last", p(2), List.of(new Attachment("f", kept.ref(), kept.ownerId())));
        pub.publish("live", p(3), List.of(new Attachment("f", passing.ref(), passing.ownerId())));
        pub.release(List.of(kept.ownerId(), passing.ownerId()));
        List<HostBus.ArtifactInfo> list = f.bus.artifacts();
        assertEquals(2, list.size(), list.toString());
        assertEquals(kept.ref(), list.get(0).ref());
        assertEquals(List.of("a.last", "b.last"), list.get(0).retainedBy(), "sorted by name");
        assertEquals(2, list.get(0).roots());
        assertEquals(passing.ref(), list.get(1).ref());
        assertEquals(List.of(), list.get(1).retainedBy(), "held only by sub's queued delivery");
        pub.clear("b.last");
        assertEquals(List.of("a.last"), f.bus.artifacts().get(0).retainedBy());
    }
}
