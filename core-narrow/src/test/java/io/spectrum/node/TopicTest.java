package io.spectrum.node;

import static io.spectrum.node.Frames.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import io.spectrum.node.fwd.FwdServer;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.WireError;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Topic semantics on every vertex: seed 000 and DESIGN §4 decisions 2 and 6. */
class TopicTest extends NodeHarness {
    static final byte[] PUB_EP = NodePath.of("/producer/ep").tlv();
    static final byte[] SUB_EP = NodePath.of("/client/a").tlv();
    /** spectrum-v1/fwd/fwd-deliver-stamp-stale: VALUE u8 5 of /sensor/temp, seq 1, stale with reason "publisher gone". */
    static final String VECTOR_STALE = "0f407d0001000100010600090006636c69656e7401610600000001000100050b405e0002000e00737065637472756d2e746f7069630b40480002000300736571010008000100000000000000020005007374616c650100010001020002006f70010001000002000600726561736f6e01000e007075626c697368657220676f6e65";
    final List<String> got = new ArrayList<>();
    final List<String> activity = new ArrayList<>();

    Subscription local(int policy) {
        return node.subscribe(temp, policy, (s, v, seq, stale) -> got.add(hex(v.copy()) + " seq=" + seq + (stale ? " stale" : "") + (v.deleted() ? " deleted" : "")));
    }

    void remotePublish(int peer, long value) {
        List<byte[]> out = exchange(peer, Frames.fwd(1, temp.tlv(), null, PUB_EP, Frames.value(value, 1)));
        assertEquals(0, Frames.parse(out.get(out.size() - 1)).kind);
    }

    /** A remote WRITE of VALUE u8 {@code value} that is not retained (spectrum.retain 0 in its announcement child). */
    void remotePublishNotRetained(int peer, long value) {
        List<byte[]> out = exchange(peer, Frames.notRetained(Frames.fwd(1, temp.tlv(), null, PUB_EP, Frames.value(value, 1))));
        assertEquals(0, Frames.parse(out.get(out.size() - 1)).kind);
    }

    /** SETTINGS{NAME spectrum.topic SETTINGS{NAME seq VALUE u64, NAME stale VALUE u8, NAME op VALUE u8}}. */
    static byte[] stamp(long seq, int stale, int op) {
        return stamp(seq, stale, op, null);
    }

    /** {@link #stamp(long, int, int)} then, with a reason, {@code NAME "reason" VALUE <utf-8>} last. */
    static byte[] stamp(long seq, int stale, int op, String reason) {
        return stamp(seq, stale, op, null, reason);
    }

    /**
     * The name a READ's stamped answer gives a vertex's last publisher when the owner wrote it: none on
     * a NARROW node, which does not name its publishers; a WIDE node's run says its owner's identity.
     */
    String ownerNamedOnReads() {
        return null;
    }

    /** A READ answer's stamp: {@link #stamp(long, int, int, String)} with the publisher's name before the reason. */
    byte[] readStamp(long seq, int stale, int op, String reason) {
        return stamp(seq, stale, op, ownerNamedOnReads(), reason);
    }

    static byte[] stamp(long seq, int stale, int op, String publisher, String reason) {
        byte[] b = new byte[256];
        io.spectrum.wire.TlvWriter w = new io.spectrum.wire.TlvWriter().wrap(b, 0, b.length);
        w.begin(io.spectrum.wire.TlvType.SETTINGS).leaf(io.spectrum.wire.TlvType.NAME, "spectrum.topic".getBytes())
                .begin(io.spectrum.wire.TlvType.SETTINGS)
                .leaf(io.spectrum.wire.TlvType.NAME, "seq".getBytes()).value(seq, 8)
                .leaf(io.spectrum.wire.TlvType.NAME, "stale".getBytes()).value(stale, 1)
                .leaf(io.spectrum.wire.TlvType.NAME, "op".getBytes()).value(op, 1);
        if (publisher != null) {
            w.leaf(io.spectrum.wire.TlvType.NAME, "publisher".getBytes())
                    .leaf(io.spectrum.wire.TlvType.NAME, publisher.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        if (reason != null) {
            w.leaf(io.spectrum.wire.TlvType.NAME, "reason".getBytes())
                    .leaf(io.spectrum.wire.TlvType.VALUE, reason.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        w.end().end();
        return java.util.Arrays.copyOf(b, w.length());
    }

    @Test
    void sequenceCountsEveryPublish_andNeverGoesBack() {
        node.write(temp, Frames.value(1, 1), 0, 5);
        node.write(temp, Frames.value(1, 1), 0, 5);
        remotePublish(PEER, 3);
        assertEquals(3, node.sequence(temp));
        node.clear(temp, false);
        assertEquals(3, node.sequence(temp), "a silent clear spends no number");
        node.write(temp, Frames.value(1, 1), 0, 5);
        assertEquals(4, node.sequence(temp), "after a clear the sequence continues");
    }

    @Test
    void aRetiredAndRecreatedPathNeverSeesItsSequenceGoBack() {
        for (int i = 0; i < 5; i++) {
            node.write(temp, Frames.value(1, 1), 0, 5);
        }
        assertEquals(WireError.OK, narrow().retire(temp));
        node.write(NodePath.of("/sensor/other"), Frames.value(1, 1), 0, 5); // may take the freed id
        node.write(temp, Frames.value(1, 1), 0, 5);
        assertTrue(node.sequence(temp) > 5, "seq " + node.sequence(temp));
    }

    @Test
    void notifyingClear_spendsAFreshNumber_andNotifiesEvenWithoutASnapshot() {
        local(0);
        node.write(NodePath.of("/sensor/x"), Frames.value(0, 1), 0, 5); // vertex exists, temp has none
        node.write(temp, Frames.value(1, 1), 0, 5);
        node.clear(temp, true);
        assertEquals(List.of("0100010001 seq=1", "09000000 seq=2 deleted"), got);
        byte[] out = new byte[8];
        assertEquals(-WireError.PATH_NOT_FOUND, node.read(temp, out, 0, 8));
        node.clear(temp, true);
        assertEquals("09000000 seq=3 deleted", got.get(2), "no snapshot held: still notified, fresh number");
    }

    @Test
    void deleteNotice_reachesRemoteSubscribers_asTheEmptyStatus_stampedWithOpDelete() {
        node.write(temp, Frames.value(1, 1), 0, 5);
        exchange(PEER, subscribeReq("/client/a", 0, false, false, SUB_EP));
        exchange(PEER, subscribeReq("/client/b", 0, false, true, NodePath.of("/client/b").tlv()));
        link.clearSent();
        node.clear(temp, true);
        assertEquals(2, link.sentCount());
        assertEquals("09000000", hex(Frames.parse(link.sentAt(0)).payloadBytes()));
        Frames.Reply stamped = Frames.parse(link.sentAt(1));
        assertEquals("09000000", hex(stamped.payloadBytes()));
        assertTrue(hex(stamped.bytes(stamped.trailing)).endsWith("02000200" + "6f70" + "01000100" + "01"));
    }

    @Test
    void retainFalse_spendsASequenceNumberAndReachesTheSubscribers_butCachesNothing() {
        node.write(temp, Frames.value(1, 1), 0, 5);
        local(0x20);
        exchange(PEER, subscribeReq("/client/a", 0, false, true, SUB_EP));
        link.clearSent();
        remotePublishNotRetained(PEER, 2);
        assertEquals(List.of("0100010001 seq=1", "0100010002 seq=2"), got, "delivered live, numbered 2");
        assertEquals(2, link.sentCount(), "the remote subscriber's delivery, then the write's answer");
        Frames.Reply d = Frames.parse(link.sentAt(0));
        assertEquals("0100010002", hex(d.payloadBytes()));
        assertArrayEquals(stamp(2, 0, 0), d.bytes(d.trailing));
        assertEquals(2, node.sequence(temp));
        byte[] out = new byte[8];
        assertEquals(5, node.read(temp, out, 0, 8));
        assertEquals(1, out[4], "the held value is still the retained one");
        got.clear();
        local(0x20);
        assertEquals(List.of("0100010001 seq=1"), got, "a late joiner gets the last retained value with its own sequence");
        got.clear();
        assertEquals(WireError.OK, node.write(temp, Frames.value(3, 1), 0, 5, false), "the local API's non-retained write");
        assertEquals(List.of("0100010003 seq=3", "0100010003 seq=3"), got);
        assertEquals(5, node.read(temp, out, 0, 8));
        assertEquals(1, out[4]);
    }

    @Test
    void retainFalse_withNoSubscriber_isANoOpThatStillSpendsTheSequence() {
        assertEquals(WireError.OK, node.write(temp, Frames.value(1, 1), 0, 5, false));
        assertEquals(1, node.sequence(temp));
        byte[] out = new byte[8];
        assertEquals(-WireError.PATH_NOT_FOUND, node.read(temp, out, 0, 8), "nothing cached");
        link.clearSent();
        remotePublishNotRetained(PEER, 2);
        assertEquals(1, link.sentCount(), "only the write's answer: nothing delivered");
        assertEquals(2, node.sequence(temp));
        assertEquals(-WireError.PATH_NOT_FOUND, node.read(temp, out, 0, 8));
        node.write(temp, Frames.value(3, 1), 0, 5);
        assertEquals(3, node.sequence(temp), "the next retained publish continues the count");
    }

    @Test
    void retainFalse_aLateJoinerWithNoRetainedValueGetsNoReplay() {
        node.write(temp, Frames.value(1, 1), 0, 5, false);
        node.write(temp, Frames.value(2, 1), 0, 5, false);
        local(0x20);
        assertEquals(List.of(), got, "no retained value: no replay");
        link.clearSent();
        exchange(PEER, subscribeReq("/client/a", 0x20, true, true, SUB_EP));
        assertEquals(1, link.sentCount(), "only the append's answer");
        assertEquals(0, Frames.parse(link.sentAt(0)).kind);
    }

    @Test
    void retainFalse_clearsTheStaleMarkOnlyForThePublisherOfTheHeldValue() {
        local(0); // (the vertex exists: a remote write never creates)
        remotePublish(PEER, 1);
        node.onPeerDown(link, PEER);
        assertTrue(node.isStale(temp));
        node.onPeerUp(link, OTHER_PEER);
        remotePublishNotRetained(OTHER_PEER, 2);
        assertTrue(node.isStale(temp), "another publisher's non-retained write leaves the held value stale");
        assertEquals(2, node.sequence(temp));
        node.onPeerUp(link, PEER);
        remotePublishNotRetained(PEER, 3);
        assertFalse(node.isStale(temp), "its own publisher back: the mark clears, by either kind of publish");
        byte[] out = new byte[8];
        assertEquals(5, node.read(temp, out, 0, 8));
        assertEquals(1, out[4], "still the retained value");
        clock.advanceMillis(120_000);
        node.tick();
        assertEquals(5, node.read(temp, out, 0, 8), "not purged: it is current again");
    }

    /** A remote WRITE of the empty STATUS with {@code spectrum.clear}; the answer's kind (0: result) or error code. */
    int remoteClear(int peer, NodePath path, boolean notify) {
        List<byte[]> out = exchange(peer, Frames.clearing(Frames.fwd(1, path.tlv(), null, PUB_EP,
                io.spectrum.wire.Names.EMPTY_STATUS.copy()), notify));
        Frames.Reply r = Frames.parse(out.get(out.size() - 1));
        return r.kind == 0 ? 0 : r.errorCode();
    }

    @Test
    void remoteClear_withNotice_dropsTheValue_spendsASequence_andSendsTheDeleteNotice() {
        node.write(temp, Frames.value(1, 1), 0, 5);
        exchange(PEER, subscribeReq("/client/a", 0, false, true, SUB_EP));
        link.clearSent();
        assertEquals(0, remoteClear(OTHER_PEER, temp, true));
        Frames.Reply notice = Frames.parse(link.sentAt(0));
        assertEquals("09000000", hex(notice.payloadBytes()));
        assertArrayEquals(stamp(2, 0, 1), notice.bytes(notice.trailing), "the delete notice at the next number");
        assertEquals(2, node.sequence(temp));
        byte[] out = new byte[8];
        assertEquals(-WireError.PATH_NOT_FOUND, node.read(temp, out, 0, 8), "the value is gone");
        node.write(temp, Frames.value(3, 1), 0, 5);
        assertEquals(3, node.sequence(temp), "the count goes on");
    }

    @Test
    void remoteClear_withoutNotice_dropsTheValue_andSendsNothing() {
        node.write(temp, Frames.value(1, 1), 0, 5);
        exchange(PEER, subscribeReq("/client/a", 0, false, true, SUB_EP));
        link.clearSent();
        assertEquals(0, remoteClear(OTHER_PEER, temp, false));
        assertEquals(1, link.sentCount(), "only the write's answer");
        assertEquals(1, node.sequence(temp), "no number spent");
        assertEquals(-WireError.PATH_NOT_FOUND, node.read(temp, new byte[8], 0, 8));
        assertEquals(0, remoteClear(OTHER_PEER, NodePath.of("/nowhere"), true), "nothing held: nothing to clear");
        assertFalse(node.exists(NodePath.of("/nowhere")), "and nothing made");
    }

    @Test
    void remoteClear_aMalformedFlag_anotherPayload_andTheNodesOwnNames_areRefused_andChangeNothing() {
        node.write(temp, Frames.value(1, 1), 0, 5);
        byte[] w = Frames.clearing(Frames.fwd(1, temp.tlv(), null, PUB_EP, io.spectrum.wire.Names.EMPTY_STATUS.copy()), true);
        w[w.length - 1] = 2; // spectrum.clear VALUE u8 2: neither 0 nor 1
        List<byte[]> out = exchange(PEER, w);
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, Frames.parse(out.get(out.size() - 1)).errorCode());
        out = exchange(PEER, Frames.clearing(Frames.fwd(1, temp.tlv(), null, PUB_EP, Frames.value(2, 1)), true));
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, Frames.parse(out.get(out.size() - 1)).errorCode(), "a clear carries the empty STATUS");
        assertEquals(WireError.ACCESS_DENIED, remoteClear(PEER, NodePath.of("/$node/caps"), true));
        assertEquals(1, node.sequence(temp));
        byte[] v = new byte[8];
        assertEquals(5, node.read(temp, v, 0, 8), "the value stays");
    }

    @Test
    void retainFalse_aMalformedRetainFlagIsRefusedAndChangesNothing() {
        node.write(temp, Frames.value(1, 1), 0, 5);
        byte[] w = Frames.notRetained(Frames.fwd(1, temp.tlv(), null, PUB_EP, Frames.value(2, 1)));
        w[w.length - 1] = 2; // spectrum.retain VALUE u8 2: neither 0 nor 1
        List<byte[]> out = exchange(PEER, w);
        Frames.Reply r = Frames.parse(out.get(out.size() - 1));
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, r.errorCode(), "a typed refusal");
        assertEquals(1, node.sequence(temp), "no number spent");
    }

    @Test
    void silentDeadChannel_reapedByThePublishThatCannotReachIt_andByTheSweep_idleOnce() {
        node.setActivityListener((p, active, n) -> activity.add(p.path() + (active ? " active " : " idle ") + n));
        node.write(temp, Frames.value(1, 1), 0, 5);
        exchange(PEER, subscribeReq("/client/a", 0, false, false, SUB_EP));
        exchange(OTHER_PEER, subscribeReq("/client/b", 0, false, false, NodePath.of("/client/b").tlv()));
        assertEquals(2, node.listenerCount(temp));
        link.gone(PEER); // its channel is gone; the link never reports it down
        node.write(temp, Frames.value(2, 1), 0, 5);
        assertEquals(1, node.listenerCount(temp), "the publish's send found it gone: reaped");
        assertEquals(List.of("/sensor/temp active 1"), activity, "the other subscriber remains: no idle");
        link.gone(OTHER_PEER); // gone too, and no publish follows
        clock.advanceMillis(999);
        node.tick();
        assertEquals(1, node.listenerCount(temp), "not before the sweep period (1 s)");
        clock.advanceMillis(1);
        node.tick();
        assertEquals(0, node.listenerCount(temp), "the sweep found it gone");
        assertEquals(List.of("/sensor/temp active 1", "/sensor/temp idle 0"), activity);
        for (int i = 0; i < 3; i++) {
            clock.advanceMillis(1000);
            node.tick();
            node.write(temp, Frames.value(3 + i, 1), 0, 5);
        }
        node.onPeerDown(link, OTHER_PEER); // the late report changes nothing either
        assertEquals(List.of("/sensor/temp active 1", "/sensor/temp idle 0"), activity, "idle exactly once");
        assertEquals(2, node.server().goneHoldersReaped());
    }

    @Test
    void lastPublisherIdentity_isTheCallersLinkAndPeer() {
        node.write(temp, Frames.value(1, 1), 0, 5);
        assertEquals(FwdServer.OWNER, narrow().lastPublisherLinkId(temp));
        remotePublish(PEER, 2);
        assertEquals(link.id(), narrow().lastPublisherLinkId(temp));
        assertEquals(PEER, narrow().lastPublisherPeer(temp));
    }

    @Test
    void stale_whenTheLastPublishersLinkGoes_clearedByItsPublishWithinGrace() {
        local(0x20);
        remotePublish(PEER, 1);
        node.onPeerDown(link, OTHER_PEER);
        assertFalse(node.isStale(temp));
        node.onPeerDown(link, PEER);
        assertTrue(node.isStale(temp));
        local(0x20); // a new subscriber gets the stale snapshot, flagged
        assertEquals("0100010001 seq=1 stale", got.get(got.size() - 1));
        clock.advanceMillis(59_000);
        node.tick();
        node.onPeerUp(link, PEER);
        remotePublish(PEER, 2);
        assertFalse(node.isStale(temp));
        clock.advanceMillis(10_000);
        node.tick();
        byte[] out = new byte[8];
        assertEquals(5, node.read(temp, out, 0, 8), "no purge once it came back");
    }

    @Test
    void staleValueIsPurgedAfterTheGrace_theDeleteNoticeSpendsAFreshNumber() {
        node.write(NodePath.of("/sensor/other"), Frames.value(0, 1), 0, 5);
        node.write(temp, Frames.value(0, 1), 0, 5);
        node.clear(temp, false);
        remotePublish(PEER, 1);
        node.onPeerDown(link, PEER);
        clock.advanceMillis(59_999);
        node.tick();
        byte[] out = new byte[8];
        assertEquals(5, node.read(temp, out, 0, 8));
        clock.advanceMillis(1);
        node.tick();
        assertEquals(-WireError.PATH_NOT_FOUND, node.read(temp, out, 0, 8));
        assertFalse(node.isStale(temp));
        assertEquals(3, node.sequence(temp), "the purge is the node's notifying clear: a fresh number, never back");
        local(0x20);
        assertEquals(List.of(), got, "after the purge there is nothing to replay");
    }

    @Test
    void graceIsConfigurable() {
        NodeHarness h = new NodeHarness(c -> c.staleGraceNanos(1_000_000));
        h.exchange(PEER, Frames.fwd(1, h.temp.tlv(), null, PUB_EP, Frames.value(1, 1)));
        h.node.write(h.temp, Frames.value(1, 1), 0, 5);
        h.exchange(PEER, Frames.fwd(1, h.temp.tlv(), null, PUB_EP, Frames.value(1, 1)));
        h.node.onPeerDown(h.link, PEER);
        h.clock.advanceMillis(1);
        h.node.tick();
        assertEquals(-WireError.PATH_NOT_FOUND, h.node.read(h.temp, new byte[8], 0, 8));
    }

    @Test
    void activeAndIdle_toALocalPublisher_onDeliveringSubscriberTransitions() {
        node.setActivityListener((p, active, n) -> activity.add(p.path() + (active ? " active " : " idle ") + n));
        node.write(temp, Frames.value(1, 1), 0, 5);
        Subscription a = local(0);
        Subscription b = local(0);
        assertEquals(List.of("/sensor/temp active 1"), activity);
        a.suspend();
        b.suspend();
        assertEquals(List.of("/sensor/temp active 1", "/sensor/temp idle 0"), activity, "suspended edges do not count");
        b.resume();
        b.close();
        a.close();
        assertEquals(List.of("/sensor/temp active 1", "/sensor/temp idle 0", "/sensor/temp active 1", "/sensor/temp idle 0"), activity);
        node.subscribe(NodePath.of("/sensor"), 0, (s, v, q, st) -> { });
        assertEquals("/sensor/temp active 1", activity.get(4), "an ancestor's subscriber observes the vertex too");
    }

    @Test
    void activeAndIdle_toARemotePublisherThatAsked_asAFwdWriteToItsReturnRoute() {
        node.write(temp, Frames.value(0, 1), 0, 5);
        announce(PEER); // the subscriber reads its slot identity from the append's answer
        exchange(OTHER_PEER, Frames.fwd(1 | 0x40, temp.tlv(), null, PUB_EP, Frames.value(1, 1)));
        link.clearSent();
        List<byte[]> out = exchange(PEER, subscribeReq("/client/a", 0, false, false, SUB_EP));
        assertEquals(2, out.size(), "notice, then the subscribe's reply");
        assertEquals(OTHER_PEER, link.sentPeer(0));
        assertEquals("0f40" + "6600" + "0100010001" + hex(PUB_EP) + "06000000"
                + "0b404900" + "02001100737065637472756d2e6163746976697479" + "0100010001"
                + "0200040070617468" + "06000c000673656e736f720474656d70"
                + "020000000".substring(0, 0)
                + "0200" + "0b00" + "7375627363726962657273" + "0100040001000000", hex(out.get(0)));
        // a plain v1 publisher (no bit 6) is never sent a notice
        exchange(OTHER_PEER, Frames.fwd(1, temp.tlv(), null, PUB_EP, Frames.value(1, 1)));
        link.clearSent();
        long[] id = Rfc0035Test.identity(Frames.parse(link.lastSent() == null ? out.get(1) : link.lastSent()));
        exchange(PEER, slotWrite((int) id[0], -1, hex("09000000"), SUB_EP));
        assertEquals(1, link.sentCount(), "only the clear's reply");
    }

    @Test
    void stamp_onlyForSubscribersThatAsked_nodeOverwritesPreSeededValues() {
        node.write(temp, Frames.value(0, 1), 0, 5);
        exchange(PEER, subscribeReq("/client/a", 0, false, true, SUB_EP));
        byte[] plainEp = NodePath.of("/client/plain").tlv();
        exchange(PEER, subscribeReq("/client/plain", 0, false, false, plainEp));
        link.clearSent();
        byte[] seeded = stamp(9999, 1, 1);
        exchange(OTHER_PEER, Frames.fwd(1, temp.tlv(), null, PUB_EP, Frames.value(7, 1), seeded));
        Frames.Reply stamped = Frames.parse(link.sentAt(0));
        assertArrayEquals(SUB_EP, stamped.bytes(stamped.dst));
        assertEquals("0100010007", hex(stamped.payloadBytes()));
        assertEquals(hex(stamp(2, 0, 0)), hex(stamped.bytes(stamped.trailing)), "seq 2 (not 9999), not stale, op publish");
        assertEquals("0b40" + "4200" + "02000e00737065637472756d2e746f706963" + "0b402c00" + "02000300736571" + "010008000200000000000000"
                + "020005007374616c65" + "0100010000" + "020002006f70" + "0100010000", hex(stamp(2, 0, 0)), "the documented bytes");
        Frames.Reply plain = Frames.parse(link.sentAt(1));
        assertEquals(TlvIndex.NONE, plain.trailing, "a plain v1 subscriber gets no extra child");
    }

    @Test
    void pathInStamp_onlyForSubscribersThatAskedBit1_namesTheWrittenChild() {
        byte[] sensor = NodePath.of("/sensor").tlv();
        byte[] treeEp = NodePath.of("/client/tree").tlv();
        byte[] stampEp = NodePath.of("/client/stamp").tlv();
        byte[] plainEp = NodePath.of("/client/plain").tlv();
        node.write(temp, Frames.value(6, 1), 0, 5);
        exchange(PEER, Frames.fwd(1, sensor, Frames.subsField(-1, 1, -1), treeEp, Frames.subscriber("/client/tree", 0, false, 3)));
        exchange(PEER, Frames.fwd(1, sensor, Frames.subsField(-1, 1, -1), stampEp, Frames.subscriber("/client/stamp", 0, false, 1)));
        exchange(PEER, Frames.fwd(1, sensor, Frames.subsField(-1, 1, -1), plainEp, Frames.subscriber("/client/plain", 0, false, 0)));
        link.clearSent();
        node.write(temp, Frames.value(7, 1), 0, 5);
        assertEquals(3, link.sentCount());
        Frames.Reply tree = Frames.parse(link.sentAt(0));
        assertArrayEquals(treeEp, tree.bytes(tree.dst));
        assertEquals("0100010007", hex(tree.payloadBytes()));
        // SETTINGS{spectrum.topic SETTINGS{seq 2, stale 0, op 0, path PATH "/sensor/temp"}}
        String withPath = "0b405a00" + "02000e00737065637472756d2e746f706963" + "0b404400" + "02000300736571" + "010008000200000000000000"
                + "020005007374616c65" + "0100010000" + "020002006f70" + "0100010000"
                + "0200040070617468" + hex(temp.tlv());
        assertEquals(withPath, hex(tree.bytes(tree.trailing)), "the documented bytes: the stamp then path = the written child");
        assertEquals("0f407c00010001000106000c0006636c69656e7404747265650600000001000100070b405a0002000e00737065637472756d2e746f7069630b40440002000300736571010008000200000000000000020005007374616c650100010000020002006f700100010000020004007061746806000c000673656e736f720474656d70",
                hex(tree.frame), "the whole delivery is vector spectrum-v1/fwd/fwd-deliver-stamp-path");
        assertEquals("06000c000673656e736f720474656d70", hex(temp.tlv()), "PATH /sensor/temp: length-prefixed segments");
        Frames.Reply stamped = Frames.parse(link.sentAt(1));
        assertEquals(hex(stamp(2, 0, 0)), hex(stamped.bytes(stamped.trailing)), "spectrum.topic 1: the stamp without path, as before");
        Frames.Reply plain = Frames.parse(link.sentAt(2));
        assertEquals(TlvIndex.NONE, plain.trailing, "a plain v1 subscriber gets plain v1: no extra child");
        assertEquals("0f40" + hex(plain.frame).substring(4, 8) + "0100010001" + hex(plainEp) + "06000000" + "0100010007",
                hex(plain.frame), "byte for byte a v1 delivery");
    }

    /** The deliveries in {@code out} addressed to {@code ep}: "PATH-of-the-stamp=value-hex" (the stamp's path, or "-"). */
    private static List<String> replayed(List<byte[]> out, byte[] ep) {
        List<String> r = new ArrayList<>();
        String pathKey = "0200040070617468"; // NAME "path"
        for (byte[] f : out) {
            Frames.Reply d = Frames.parse(f);
            if (d.op != 1 || !java.util.Arrays.equals(ep, d.bytes(d.dst))) {
                continue;
            }
            String st = d.trailing == TlvIndex.NONE ? "" : hex(d.bytes(d.trailing));
            int at = st.indexOf(pathKey);
            String path = "-";
            if (at >= 0) {
                byte[] tail = new byte[(st.length() - at - pathKey.length()) / 2];
                for (int i = 0; i < tail.length; i++) {
                    tail[i] = (byte) Integer.parseInt(st.substring(at + pathKey.length() + 2 * i, at + pathKey.length() + 2 * i + 2), 16);
                }
                int len = (tail[2] & 0xFF) | (tail[3] & 0xFF) << 8; // PATH: 06 00 LL LL, then the body
                path = NodePath.ofBody(tail, 4, len).toString();
            }
            r.add(path + "=" + hex(d.payloadBytes()));
        }
        return r;
    }

    @Test
    void durableSubtreeReplay_sendsEveryRetainedChildNamingIt_whoeverElseListens_onlyToSubscribersThatAskedThePath() {
        NodePath shed = NodePath.of("/shed");
        node.write(NodePath.of("/shed/led"), Frames.value(1, 1), 0, 5);
        node.write(NodePath.of("/shed/name"), Frames.value(2, 1), 0, 5);
        node.write(NodePath.of("/shed/relay/coil"), Frames.value(4, 1), 0, 5);
        node.write(NodePath.of("/shed/relay"), Frames.value(3, 1), 0, 5);
        node.write(NodePath.of("/shed/empty"), Frames.value(9, 1), 0, 5);
        node.clear(NodePath.of("/shed/empty"), false); // exists, holds no value: nothing is invented for it
        final int durable = io.spectrum.wire.DeliveryPolicy.DURABILITY_REQUEST;
        List<String> all = List.of("/shed/led=0100010001", "/shed/name=0100010002", "/shed/relay/coil=0100010004",
                "/shed/relay=0100010003"); // sorted as strings
        for (String who : List.of("first", "second", "third")) { // alone, then with others already holding /shed
            byte[] ep = NodePath.of("/client/" + who).tlv();
            List<byte[]> out = exchange(PEER, Frames.fwd(1, shed.tlv(), Frames.subsField(-1, 1, -1), ep,
                    Frames.subscriber("/client/" + who, durable, true, 3)));
            List<String> got = replayed(out, ep);
            List<String> sorted = new ArrayList<>(got);
            sorted.sort(null); // siblings come in the core's child order
            assertEquals(all, sorted, who + ": every retained value of the subtree, each naming its child");
            assertTrue(got.indexOf("/shed/relay=0100010003") < got.indexOf("/shed/relay/coil=0100010004"), "a vertex before its descendants");
        }
        byte[] stampEp = NodePath.of("/client/stamp").tlv();
        List<byte[]> out = exchange(PEER, Frames.fwd(1, shed.tlv(), Frames.subsField(-1, 1, -1), stampEp,
                Frames.subscriber("/client/stamp", durable, true, 1)));
        assertEquals(List.of(), replayed(out, stampEp), "spectrum.topic 1 (no path asked): its own vertex only, as before");
        byte[] plainEp = NodePath.of("/client/plain").tlv();
        out = exchange(PEER, Frames.fwd(1, NodePath.of("/shed/relay").tlv(), Frames.subsField(-1, 1, -1), plainEp,
                Frames.subscriber("/client/plain", durable, true, 0)));
        assertEquals(List.of("-=0100010003"), replayed(out, plainEp), "a plain v1 subscriber: its own vertex's value only");
        byte[] relayEp = NodePath.of("/client/relay").tlv();
        out = exchange(PEER, Frames.fwd(1, NodePath.of("/shed/relay").tlv(), Frames.subsField(-1, 1, -1), relayEp,
                Frames.subscriber("/client/relay", durable, true, 3)));
        assertEquals(List.of("/shed/relay=0100010003", "/shed/relay/coil=0100010004"), replayed(out, relayEp),
                "its own value first, then the descendants'");
        byte[] liveEp = NodePath.of("/client/live").tlv();
        out = exchange(PEER, Frames.fwd(1, shed.tlv(), Frames.subsField(-1, 1, -1), liveEp,
                Frames.subscriber("/client/live", 0, false, 3)));
        assertEquals(List.of(), replayed(out, liveEp), "no durability bit: no replay");
    }

    @Test
    void staleMarkAndPurge_areDeliveredAtOnce_toStampedSubscribersAndCallbacks_plainV1SeesNothing() {
        local(0); // an in-process callback: it takes the stamp with every value
        byte[] plainEp = NodePath.of("/client/plain").tlv();
        exchange(PEER, subscribeReq("/client/a", 0, false, true, SUB_EP));
        exchange(PEER, subscribeReq("/client/plain", 0, false, false, plainEp));
        remotePublish(OTHER_PEER, 5); // seq 1
        got.clear();
        link.clearSent();

        node.onPeerDown(link, OTHER_PEER); // the last publisher's link goes: stale now, not at the next delivery
        assertEquals(1, link.sentCount(), "only the stamped subscriber is sent the stale delivery; plain v1 sees nothing");
        assertEquals(PEER, link.sentPeer(0));
        Frames.Reply stale = Frames.parse(link.sentAt(0));
        assertArrayEquals(SUB_EP, stale.bytes(stale.dst));
        assertEquals("0100010005", hex(stale.payloadBytes()), "the retained value");
        assertEquals(hex(stamp(1, 1, 0, "publisher gone")), hex(stale.bytes(stale.trailing)),
                "the same seq 1, stale 1, op publish, and why: the publisher is gone");
        assertEquals(VECTOR_STALE, hex(link.sentAt(0)), "the whole delivery is vector spectrum-v1/fwd/fwd-deliver-stamp-stale");
        assertEquals(List.of("0100010005 seq=1 stale"), got);
        assertEquals(1, node.sequence(temp), "a stale mark is not a publish: no number spent");

        clock.advanceMillis(59_999);
        node.tick();
        assertEquals(1, link.sentCount(), "nothing more within the grace");
        clock.advanceMillis(1);
        node.tick(); // the grace ran out: purge
        assertEquals(2, link.sentCount(), "the delete notice, to the stamped subscriber only");
        assertEquals(PEER, link.sentPeer(1));
        Frames.Reply purge = Frames.parse(link.sentAt(1));
        assertArrayEquals(SUB_EP, purge.bytes(purge.dst));
        assertEquals("09000000", hex(purge.payloadBytes()), "the empty STATUS, as a notifying clear sends");
        assertEquals(hex(stamp(2, 0, 1)), hex(purge.bytes(purge.trailing)), "a fresh seq 2, no longer stale, op delete");
        assertEquals(List.of("0100010005 seq=1 stale", "09000000 seq=2 deleted"), got);
        node.tick();
        assertEquals(2, link.sentCount(), "a purge is told once");
    }

    @Test
    void staleNotice_toASubtreeSubscriberThatAskedThePath_namesTheStaleVertex() {
        node.write(temp, Frames.value(0, 1), 0, 5); // the vertex exists (a remote write does not create it)
        byte[] sensor = NodePath.of("/sensor").tlv();
        byte[] treeEp = NodePath.of("/client/tree").tlv();
        exchange(PEER, Frames.fwd(1, sensor, Frames.subsField(-1, 1, -1), treeEp, Frames.subscriber("/client/tree", 0, false, 3)));
        exchange(OTHER_PEER, Frames.fwd(1, temp.tlv(), null, PUB_EP, Frames.value(9, 1))); // delivered, and answered
        link.clearSent();
        node.onPeerDown(link, OTHER_PEER);
        assertEquals(1, link.sentCount());
        Frames.Reply r = Frames.parse(link.sentAt(0));
        assertArrayEquals(treeEp, r.bytes(r.dst));
        assertTrue(hex(r.bytes(r.trailing)).endsWith("020005007374616c65" + "0100010001" + "020002006f70" + "0100010000"
                + "0200040070617468" + hex(temp.tlv()) + "0200060072656173" + "6f6e" + "01000e00" + hex("publisher gone".getBytes())),
                "stale 1, op 0, path /sensor/temp, then the reason last: " + hex(r.bytes(r.trailing)));
    }

    @Test
    void aSubscriberOfTheDepartedPeerItself_isToldNothing() {
        node.write(temp, Frames.value(0, 1), 0, 5); // the vertex exists (a remote write does not create it)
        exchange(OTHER_PEER, subscribeReq("/client/a", 0, false, true, SUB_EP));
        exchange(OTHER_PEER, Frames.fwd(1, temp.tlv(), null, PUB_EP, Frames.value(5, 1))); // delivered, and answered
        link.clearSent();
        node.onPeerDown(link, OTHER_PEER);
        assertTrue(node.isStale(temp));
        assertEquals(0, link.sentCount(), "its slot is reaped before the stale mark: nothing is sent to a peer that is gone");
    }

    @Test
    void ownersStaleMark_keepsTheValue_isToldWithItsReason_outlivesTheGrace_andTheNextPublishClearsIt() {
        local(0);
        byte[] plainEp = NodePath.of("/client/plain").tlv();
        exchange(PEER, subscribeReq("/client/a", 0, false, true, SUB_EP));
        exchange(PEER, subscribeReq("/client/plain", 0, false, false, plainEp));
        node.write(temp, Frames.value(5, 1), 0, 5); // seq 1
        got.clear();
        link.clearSent();

        assertEquals(WireError.OK, node.markStale(temp, "i2c 1/0x48 reg 0: read 0 of 2 bytes"));
        assertTrue(node.isStale(temp));
        assertEquals("i2c 1/0x48 reg 0: read 0 of 2 bytes", node.staleReason(temp));
        assertEquals(1, link.sentCount(), "the stamped subscriber is told at once; plain v1 sees nothing");
        Frames.Reply r = Frames.parse(link.sentAt(0));
        assertEquals("0100010005", hex(r.payloadBytes()), "the value is kept");
        assertEquals(hex(stamp(1, 1, 0, "i2c 1/0x48 reg 0: read 0 of 2 bytes")), hex(r.bytes(r.trailing)),
                "same seq, stale 1, op 0, the reason last");
        assertEquals(List.of("0100010005 seq=1 stale"), got);
        assertEquals(1, node.sequence(temp), "a stale mark spends no number");

        assertEquals(WireError.OK, node.markStale(temp, "i2c 1/0x48 reg 0: read 0 of 2 bytes"));
        assertEquals(1, link.sentCount(), "the same mark again tells nobody");
        assertEquals(WireError.OK, node.markStale(temp, "i2c 1/0x48: bus timeout"));
        assertEquals(2, link.sentCount(), "a changed reason is told");
        assertEquals(hex(stamp(1, 1, 0, "i2c 1/0x48: bus timeout")), hex(Frames.parse(link.sentAt(1)).bytes(Frames.parse(link.sentAt(1)).trailing)));

        clock.advanceMillis(3_600_000);
        node.tick();
        assertTrue(node.isStale(temp), "the owner's mark is not purged by the grace");
        assertEquals(2, link.sentCount());
        byte[] out = new byte[16];
        assertEquals(5, node.read(temp, out, 0, out.length), "the value stays readable");

        node.write(temp, Frames.value(6, 1), 0, 5); // the source recovered: seq 2
        assertFalse(node.isStale(temp));
        assertEquals(null, node.staleReason(temp));
        assertEquals(0, node.staleReason(temp, out, 0, out.length));
        Frames.Reply fresh = Frames.parse(link.sentAt(link.sentCount() - 2));
        assertEquals(hex(stamp(2, 0, 0)), hex(fresh.bytes(fresh.trailing)), "fresh again: the stamp of before, no reason");
    }

    @Test
    void ownersStaleMark_ofAnAbsentOrEmptyVertex_isNotFound_andChangesNothing() {
        assertEquals(WireError.PATH_NOT_FOUND, node.markStale(NodePath.of("/nowhere"), "x"));
        assertFalse(node.exists(NodePath.of("/nowhere")));
        node.write(temp, Frames.value(5, 1), 0, 5);
        node.clear(temp, false);
        assertEquals(WireError.PATH_NOT_FOUND, node.markStale(temp, "x"));
        assertFalse(node.isStale(temp));
    }

    @Test
    void staleReason_isCutAt96BytesOnACharacterBoundary() {
        node.write(temp, Frames.value(5, 1), 0, 5);
        String longReason = "x".repeat(95) + "\u00e9" + "tail"; // 95 + 2 bytes: the é does not fit
        assertEquals(WireError.OK, node.markStale(temp, longReason));
        assertEquals("x".repeat(95), node.staleReason(temp));
    }

    @Test
    void ownersMarkWithTheNodesOwnReason_isByteForByteThePublisherGoneNotice() {
        node.write(temp, Frames.value(5, 1), 0, 5); // seq 1
        exchange(PEER, subscribeReq("/client/a", 0, false, true, SUB_EP));
        link.clearSent();
        node.markStale(temp, io.spectrum.wire.StaleReason.PUBLISHER_GONE);
        assertEquals(1, link.sentCount());
        assertEquals(VECTOR_STALE, hex(link.sentAt(0)), "one stale notice, whoever marked it: vector fwd-deliver-stamp-stale");
    }

    /** A READ of temp whose trailing child is {@code SETTINGS{NAME "spectrum.topic" VALUE u8 1}}. */
    /**
     * A declared vertex that has no value yet may be marked by its owner (a source that failed from its
     * first read): a stamped READ is answered not_found with the stamp, stale with the reason; a stamped
     * subscriber is sent the empty STATUS stamped stale (op 0, not a delete notice) at the mark and on
     * its durable admission; a plain READ and a plain v1 subscriber see exactly what they saw before.
     * An undeclared empty vertex still cannot be marked.
     */
    @Test
    void aDeclaredVertexWithoutAValue_markedStale_isNoValueYetWithTheReason_forWhoeverAskedTheStamp() {
        node.declare(temp, io.spectrum.node.api.VertexSchema.value(1, false).build());
        exchange(PEER, subscribeReq("/client/a", 0, false, true, SUB_EP));
        byte[] plainEp = NodePath.of("/client/plain").tlv();
        exchange(PEER, subscribeReq("/client/plain", 0, false, false, plainEp));
        link.clearSent();
        assertEquals(0, node.markStale(temp, "i2c 1/0x48 reg 0: read 0 of 2 bytes"));
        assertTrue(node.isStale(temp));
        assertEquals(1, link.sentCount(), "the stamped subscriber only");
        Frames.Reply notice = Frames.parse(link.sentAt(0));
        assertEquals("09000000", hex(notice.payloadBytes()), "no value: the empty STATUS");
        assertEquals(hex(stamp(0, 1, 0, "i2c 1/0x48 reg 0: read 0 of 2 bytes")), hex(notice.bytes(notice.trailing)),
                "stale 1, op 0 (not a delete notice), and why");

        Frames.Reply read = Frames.parse(exchange(PEER, stampedRead()).get(0));
        assertEquals(io.spectrum.wire.WireError.PATH_NOT_FOUND, read.errorCode(), "still not_found: there is no value");
        assertEquals(hex(stamp(0, 1, 0, "i2c 1/0x48 reg 0: read 0 of 2 bytes")), hex(read.bytes(read.trailing)));
        assertEquals(TlvIndex.NONE, Frames.parse(exchange(PEER, Frames.fwd(0, temp.tlv(), null, Frames.REPLY_EP)).get(0)).trailing,
                "a READ that did not ask: the plain v1 answer");

        byte[] lateEp = NodePath.of("/client/late").tlv();
        List<byte[]> late = exchange(PEER, subscribeReq("/client/late", 0x0020, true, true, lateEp));
        assertTrue(late.stream().map(Frames::parse).anyMatch(f -> java.util.Arrays.equals(lateEp, f.bytes(f.dst))
                && "09000000".equals(hex(f.payloadBytes()))), "a durable stamped subscriber is told it on admission");
        byte[] treeEp = NodePath.of("/client/tree").tlv();
        List<byte[]> tree = exchange(PEER, Frames.fwd(1, temp.tlv(), Frames.subsField(-1, 1, -1), treeEp,
                Frames.subscriber("/client/tree", 0x0020, true, 3)));
        assertTrue(tree.stream().map(Frames::parse).anyMatch(f -> java.util.Arrays.equals(treeEp, f.bytes(f.dst))
                && "09000000".equals(hex(f.payloadBytes()))), "and one that asked the path too (spectrum sub's)");

        node.write(temp, Frames.value(5, 1), 0, 5);
        assertFalse(node.isStale(temp), "the first value clears the mark");
        NodePath undeclared = NodePath.of("/sensor/other");
        node.subscribe(undeclared, 0, (s2, v, seq, stale) -> { });
        assertEquals(io.spectrum.wire.WireError.PATH_NOT_FOUND, node.markStale(undeclared, "x"), "undeclared and empty: nothing to mark");
    }

    static byte[] stampedRead() {
        return Frames.fwd(0, NodePath.of("/sensor/temp").tlv(), null, Frames.REPLY_EP,
                hexBytes("0b401700" + "02000e00737065637472756d2e746f706963" + "0100010001"));
    }

    static byte[] hexBytes(String h) {
        return java.util.HexFormat.of().parseHex(h);
    }

    @Test
    void readAnswer_carriesTheStamp_onlyWhenAsked_withTheReasonWhileStale() {
        node.write(temp, Frames.value(5, 1), 0, 5); // seq 1
        List<byte[]> plain = exchange(PEER, Frames.fwd(0, temp.tlv(), null, Frames.REPLY_EP));
        assertEquals(TlvIndex.NONE, Frames.parse(plain.get(0)).trailing, "a READ that did not ask: the plain v1 answer");

        Frames.Reply fresh = Frames.parse(exchange(PEER, stampedRead()).get(0));
        assertEquals("0100010005", hex(fresh.payloadBytes()));
        assertEquals(hex(readStamp(1, 0, 0, null)), hex(fresh.bytes(fresh.trailing)), "seq 1, current: no reason");

        node.markStale(temp, io.spectrum.wire.StaleReason.SEQUENCE_GAP);
        Frames.Reply stale = Frames.parse(exchange(PEER, stampedRead()).get(0));
        assertEquals("0100010005", hex(stale.payloadBytes()), "the value is kept");
        assertEquals(hex(readStamp(1, 1, 0, "sequence gap")), hex(stale.bytes(stale.trailing)), "stale, with its reason last");
        assertEquals(TlvIndex.NONE, Frames.parse(exchange(PEER, Frames.fwd(0, temp.tlv(), null, Frames.REPLY_EP)).get(0)).trailing,
                "still plain for a READ that did not ask");
    }

    @Test
    void readAnswer_ofAVertexWhoseValueWasCleared_isNotFound_withItsSequence() {
        node.write(temp, Frames.value(5, 1), 0, 5); // seq 1
        node.clear(temp, true); // seq 2: the delete notice
        Frames.Reply read = Frames.parse(exchange(PEER, stampedRead()).get(0));
        assertEquals(io.spectrum.wire.WireError.PATH_NOT_FOUND, read.errorCode(), "no value now");
        assertEquals(hex(readStamp(2, 0, 0, null)), hex(read.bytes(read.trailing)), "its sequence, not stale");
        assertEquals(TlvIndex.NONE, Frames.parse(exchange(PEER, Frames.fwd(0, temp.tlv(), null, Frames.REPLY_EP)).get(0)).trailing,
                "a READ that did not ask: the plain v1 answer");
    }
}
