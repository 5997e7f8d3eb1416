package io.spectrum.node;

import static io.spectrum.node.Frames.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.api.AccessPolicy;
import io.spectrum.node.api.NodePath;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;
import java.util.List;
import org.junit.jupiter.api.Test;

/** RFC-0035: :subscribers[N] as one surface, for remote holders over a fake link and for the owner. */
class Rfc0035Test extends NodeHarness {
    static final byte[] EP_A = NodePath.of("/client/a").tlv();
    static final byte[] EP_B = NodePath.of("/client/b").tlv();

    /** The holders here read the append's identity answer: they speak Spectrum's extensions. */
    Rfc0035Test() {
        announce(PEER);
        announce(OTHER_PEER);
    }

    /** Appends SUBSCRIBER{target[, policy]} from PEER with src EP_A and returns the identity (index, gen). */
    long[] append(int peer, byte[] src, String target, int policy, boolean withPolicy) {
        List<byte[]> out = exchange(peer, subscribeReq(target, policy, withPolicy, false, src));
        Frames.Reply r = Frames.parse(out.get(out.size() - 1)); // after a latch delivery, if any
        assertEquals(0, r.kind, "append refused: " + r.errorCode());
        return identity(r);
    }

    static long[] identity(Frames.Reply r) {
        TlvIndex x = r.idx;
        assertEquals(TlvType.FIELD, x.type(r.payload));
        io.spectrum.wire.FieldView f = new io.spectrum.wire.FieldView();
        assertEquals(io.spectrum.wire.WireError.OK, f.wrap(x, r.payload), "the identity is a valid FIELD");
        assertEquals(1, f.levels(), "one element level, its generation folded in");
        return new long[] {f.index(0), f.generation(0)};
    }

    Frames.Reply readSlot(int n) {
        return request(slotRead(n, -1));
    }

    int deliveriesTo(byte[] route, List<byte[]> frames) {
        int k = 0;
        for (byte[] f : frames) {
            Frames.Reply r = Frames.parse(f);
            if (r.op == 1 && java.util.Arrays.equals(r.bytes(r.dst), route)) {
                k++;
            }
        }
        return k;
    }

    int publishDeliveries(byte[] route) {
        int before = link.sentCount();
        node.write(temp, Frames.value(42, 1), 0, 5);
        int k = 0;
        for (int i = before; i < link.sentCount(); i++) {
            Frames.Reply r = Frames.parse(link.sentAt(i));
            if (r.op == 1 && java.util.Arrays.equals(r.bytes(r.dst), route)) {
                k++;
            }
        }
        return k;
    }

    byte[] rendering(int n) {
        return readSlot(n).payloadBytes();
    }

    static byte[] withBit9(byte[] rendering, boolean on) {
        // helper for tests that hold a record with a policy word at a known place: flip via rule 1
        byte[] b = rendering.clone();
        int i = indexOf(b, "delivery_policy".getBytes()) + "delivery_policy".length() + 4 + 1;
        b[i] = (byte) (on ? b[i] | 2 : b[i] & ~2);
        return b;
    }

    static int indexOf(byte[] b, byte[] s) {
        outer:
        for (int i = 0; i + s.length <= b.length; i++) {
            for (int j = 0; j < s.length; j++) {
                if (b[i + j] != s[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    // ---------------------------------------------------------------- §3 / §5.1 rendering

    @Test
    void rfc0035_s5_1_rule3_suspendedRecordWithoutWord_rendersAsThePolicySuspendedVector() {
        node.write(temp, Frames.value(0, 1), 0, 5);
        byte[] client = NodePath.of("/client").tlv();
        append(PEER, client, "/client", 0x0200, true);
        // a record with no word, created suspended through the owner's toggle
        Frames.Reply r = request(Frames.fwd(1, temp.tlv(), Frames.subsField(-1, 1, -1), EP_B, hex("0440" + "0b00" + "0600070006636c69656e74")));
        long[] id = identity(r);
        assertEquals(WireError.OK, owner(slotWrite((int) id[0], -1, hex(Vectors.POLICY_SUSPENDED), Frames.REPLY_EP)).errorCode(),
                "the vector is the rule-3 rendering of SUBSCRIBER{PATH client} suspended: arm 2");
        assertEquals(Vectors.POLICY_SUSPENDED.toLowerCase(), hex(rendering((int) id[0])));
    }

    @Test
    void rfc0035_s5_1_rule2_deliveringRecordWithoutWord_isVerbatim() {
        node.write(temp, Frames.value(0, 1), 0, 5);
        byte[] rec = Frames.subscriber("/client/a", 0, false, false);
        long[] id = identity(request(Frames.fwd(1, temp.tlv(), Frames.subsField(-1, 1, -1), EP_A, rec)));
        assertArrayEquals(rec, rendering((int) id[0]));
    }

    @Test
    void rfc0035_s5_1_rule1_recordWithWord_rendersLiveBit9_lengthUnchanged() {
        node.write(temp, Frames.value(0, 1), 0, 5);
        long[] id = append(PEER, EP_A, "/client/a", 0x0021, true);
        byte[] r0 = rendering((int) id[0]);
        byte[] rec = Frames.subscriber("/client/a", 0x0021, true, false);
        assertArrayEquals(rec, r0);
        assertEquals(0, request(slotWrite((int) id[0], -1, withBit9(r0, true), EP_A)).kind);
        byte[] r1 = rendering((int) id[0]);
        assertEquals(r0.length, r1.length);
        assertArrayEquals(Frames.subscriber("/client/a", 0x0221, true, false), r1);
    }

    @Test
    void rfc0035_s5_1_rule3_appendsThePairToAnExistingSettings() {
        node.write(temp, Frames.value(0, 1), 0, 5);
        byte[] rec = Frames.subscriber("/client/a", 0, false, true); // SETTINGS{spectrum.topic 1}, no word
        long[] id = identity(request(Frames.fwd(1, temp.tlv(), Frames.subsField(-1, 1, -1), EP_A, rec)));
        assertEquals(WireError.OK, owner(slotWrite((int) id[0], -1, suspendedRule3(rec), Frames.REPLY_EP)).errorCode());
        byte[] r = rendering((int) id[0]);
        assertEquals(rec.length + 4 + 15 + 6, r.length);
        assertTrue(hex(r).endsWith("02000f0064656c69766572795f706f6c696379" + "010002000002"), hex(r));
    }

    /** Builds the rule-3 rendering by hand (SETTINGS gets the pair as its last pair). */
    static byte[] suspendedRule3(byte[] rec) {
        String h = hex(rec);
        String pair = "02000f0064656c69766572795f706f6c696379010002000002";
        // the record is SUBSCRIBER{PATH, SETTINGS{...}} with short lengths
        int recLen = Integer.parseInt(h.substring(6, 8) + h.substring(4, 6), 16) + 25;
        int pathLen = 4 + Integer.parseInt(h.substring(14, 16) + h.substring(12, 14), 16);
        String path = h.substring(8, 8 + 2 * pathLen);
        String settings = h.substring(8 + 2 * pathLen);
        int sLen = Integer.parseInt(settings.substring(6, 8) + settings.substring(4, 6), 16) + 25;
        String newSettings = "0b40" + le16(sLen) + settings.substring(8) + pair;
        return hex("0440" + le16(recLen) + path + newSettings);
    }

    static String le16(int v) {
        return String.format("%02x%02x", v & 0xFF, v >> 8);
    }

    // ---------------------------------------------------------------- §4.4 the [N] arms

    @Test
    void rfc0035_s4_4_arm1_emptyStatusClears() {
        node.write(temp, Frames.value(0, 1), 0, 5);
        long[] id = append(PEER, EP_A, "/client/a", 0, false);
        assertEquals(0, request(slotWrite((int) id[0], -1, hex("09000000"), EP_A)).kind);
        assertEquals(0, publishDeliveries(EP_A));
        assertEquals(WireError.PATH_NOT_FOUND, readSlot((int) id[0]).errorCode());
    }

    @Test
    void rfc0035_s4_4_arm2_toggleSetsStateWithoutAdmission() {
        node.write(temp, Frames.value(5, 1), 0, 5);
        long[] id = append(PEER, EP_A, "/client/a", 0x0020, true); // durable: latched once at admission
        byte[] r = rendering((int) id[0]);
        List<byte[]> out = exchange(PEER, slotWrite((int) id[0], -1, withBit9(r, true), EP_A));
        assertEquals(1, out.size(), "only the reply: no latch, no frame to the subscriber");
        assertEquals(0, Frames.parse(out.get(0)).kind);
        assertEquals(0, publishDeliveries(EP_A));
        out = exchange(PEER, slotWrite((int) id[0], -1, r, EP_A));
        assertEquals(1, out.size(), "resume: no replay of the latched value (§4.5)");
        long[] after = append(PEER, EP_A, "/client/a", 0x0020, true);
        assertEquals(id[1], after[1], "no re-admission: generation unchanged");
        assertEquals(1, publishDeliveries(EP_A));
    }

    @Test
    void rfc0035_s4_4_arm2_onlyBit9MayDiffer_anyOtherChangeIsAReplace() {
        node.write(temp, Frames.value(5, 1), 0, 5);
        long[] id = append(PEER, EP_A, "/client/a", 0x0001, true);
        byte[] r = rendering((int) id[0]);
        byte[] bit8 = r.clone();
        bit8[bit8.length - 1] |= 0x01; // one_shot: not a toggle
        Frames.Reply rep = request(slotWrite((int) id[0], -1, bit8, EP_A));
        assertNotEquals(id[1], identity(rep)[1], "arm 3: re-admitted");
        byte[] both = withBit9(rendering((int) id[0]), true);
        both[both.length - 2] ^= 0x04; // priority bit as well as bit 9
        long before = identity(request(subscribeReq("/client/a", 0x0101, true, false, EP_A)))[1];
        assertNotEquals(before, identity(request(slotWrite((int) id[0], -1, both, EP_A)))[1]);
    }

    @Test
    void rfc0035_s4_4_arm2_retryOfTheSameToggleIsIdempotent() {
        node.write(temp, Frames.value(5, 1), 0, 5);
        long[] id = append(PEER, EP_A, "/client/a", 0, true);
        byte[] suspended = withBit9(rendering((int) id[0]), true);
        assertEquals(0, request(slotWrite((int) id[0], -1, suspended, EP_A)).kind);
        assertEquals(0, request(slotWrite((int) id[0], -1, suspended, EP_A)).kind);
        assertArrayEquals(suspended, rendering((int) id[0]));
        assertEquals(id[1], identity(request(subscribeReq("/client/a", 0, true, false, EP_A)))[1], "not a replace");
    }

    @Test
    void rfc0035_s4_4_arm3_otherSubscriberReplacesThroughTheAppendDoor() {
        node.write(temp, Frames.value(5, 1), 0, 5);
        long[] id = append(PEER, EP_A, "/client/a", 0, false);
        byte[] other = Frames.subscriber("/client/other", 0x0020, true, false);
        List<byte[]> out = exchange(PEER, slotWrite((int) id[0], -1, other, EP_B));
        assertEquals(2, out.size(), "latch delivery, then the reply");
        Frames.Reply latch = Frames.parse(out.get(0));
        assertEquals(1, latch.op);
        assertArrayEquals(EP_B, latch.bytes(latch.dst), "the replaced edge binds to the new request's route");
        long[] nid = identity(Frames.parse(out.get(1)));
        assertEquals(id[0], nid[0], "same position");
        assertNotEquals(id[1], nid[1], "re-admitted: new generation");
        assertArrayEquals(other, rendering((int) id[0]));
    }

    @Test
    void rfc0035_s4_4_arm4_anythingElseIsTypeMismatch_slotUntouched() {
        node.write(temp, Frames.value(5, 1), 0, 5);
        long[] id = append(PEER, EP_A, "/client/a", 0, false);
        byte[] before = rendering((int) id[0]);
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, request(slotWrite((int) id[0], -1, Frames.value(1, 1), EP_A)).errorCode());
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH,
                request(slotWrite((int) id[0], -1, hex("04400500" + "0100010001"), EP_A)).errorCode(), "a target-less SUBSCRIBER");
        assertArrayEquals(before, rendering((int) id[0]));
        assertEquals(1, publishDeliveries(EP_A));
    }

    @Test
    void rfc0035_s4_4_indexWithNoSlotIsPathInvalid_neverGrows() {
        node.write(temp, Frames.value(5, 1), 0, 5);
        assertEquals(WireError.PATH_INVALID, request(slotWrite(3, -1, Frames.subscriber("/c", 0, false, false), EP_A)).errorCode());
        assertEquals(WireError.PATH_NOT_FOUND, readSlot(3).errorCode());
        assertEquals("07400000", hex(request(listRead()).payloadBytes()));
    }

    // ---------------------------------------------------------------- §4.1-§4.3, §4.5

    @Test
    void rfc0035_s4_3_createSuspended_admittedWithoutLatch() {
        node.write(temp, Frames.value(5, 1), 0, 5);
        List<byte[]> out = exchange(PEER, subscribeReq("/client/a", 0x0220, true, false, EP_A));
        assertEquals(1, out.size(), "no latch for a suspended edge");
        assertEquals(0, node.listenerCount(temp), "§4.2: a suspended edge is not a subscriber");
        assertEquals(0, publishDeliveries(EP_A));
        assertArrayEquals(Frames.subscriber("/client/a", 0x0220, true, false), rendering(0));
    }

    @Test
    void rfc0035_s4_1_suspendedEdgeGetsNoBubbledWrites_andKeepsItsSlot() {
        node.write(temp, Frames.value(5, 1), 0, 5);
        NodePath sensor = NodePath.of("/sensor");
        long[] id = identity(request(Frames.fwd(1, sensor.tlv(), Frames.subsField(-1, 1, -1), EP_A,
                Frames.subscriber("/client/a", 0x0200, true, false))));
        int before = link.sentCount();
        node.write(temp, Frames.value(6, 1), 0, 5);
        assertEquals(before, link.sentCount(), "descendant write not bubbled to a suspended edge");
        Frames.Reply r = request(Frames.fwd(0, sensor.tlv(), Frames.subsField((int) id[0], 1, -1), Frames.REPLY_EP));
        assertEquals(0, r.kind);
    }

    @Test
    void rfc0035_s4_1_suspendedEdgeBesideDeliveringOnesGetsNothing_ownAndBubbled() {
        node.write(temp, Frames.value(5, 1), 0, 5);
        append(PEER, EP_A, "/client/a", 0x0200, true); // suspended, on the vertex
        append(PEER, EP_B, "/client/b", 0, false); // delivering, on the vertex
        byte[] epC = NodePath.of("/client/c").tlv();
        exchange(PEER, Frames.fwd(1, NodePath.of("/sensor").tlv(), Frames.subsField(-1, 1, -1), epC,
                Frames.subscriber("/client/c", 0x0200, true, false))); // suspended, on the ancestor
        byte[] epD = NodePath.of("/client/d").tlv();
        exchange(PEER, Frames.fwd(1, NodePath.of("/sensor").tlv(), Frames.subsField(-1, 1, -1), epD,
                Frames.subscriber("/client/d", 0, false, false))); // delivering, on the ancestor
        int before = link.sentCount();
        node.write(temp, Frames.value(6, 1), 0, 5);
        List<byte[]> sent = new java.util.ArrayList<>();
        for (int i = before; i < link.sentCount(); i++) {
            sent.add(link.sentAt(i));
        }
        assertEquals(0, deliveriesTo(EP_A, sent));
        assertEquals(1, deliveriesTo(EP_B, sent));
        assertEquals(0, deliveriesTo(epC, sent));
        assertEquals(1, deliveriesTo(epD, sent));
    }

    @Test
    void rfc0035_s4_2_onlyDeliveringEdgesCount() {
        node.write(temp, Frames.value(5, 1), 0, 5);
        long[] a = append(PEER, EP_A, "/client/a", 0, true);
        append(PEER, EP_B, "/client/b", 0, true);
        assertEquals(2, node.listenerCount(temp));
        request(slotWrite((int) a[0], -1, withBit9(rendering((int) a[0]), true), EP_A));
        assertEquals(1, node.listenerCount(temp));
    }

    // ---------------------------------------------------------------- §5.2 the list

    @Test
    void rfc0035_s5_2_listKeepsPositions_holesAreEmptyStatus_trailingHolesOmitted() {
        node.write(temp, Frames.value(5, 1), 0, 5);
        append(PEER, EP_A, "/client/a", 0, false);
        long[] b = append(PEER, EP_B, "/client/b", 0, false);
        append(PEER, NodePath.of("/client/c").tlv(), "/client/c", 0, false);
        long[] d = append(PEER, NodePath.of("/client/d").tlv(), "/client/d", 0, false);
        io.spectrum.node.api.Subscription cb = node.subscribe(temp, 0, (s, v, q, st) -> { }); // position 4, no record
        request(slotWrite((int) b[0], -1, hex("09000000"), EP_B));
        request(slotWrite((int) d[0], -1, hex("09000000"), NodePath.of("/client/d").tlv()));
        Frames.Reply r = request(listRead());
        TlvIndex x = r.idx;
        assertEquals(TlvType.POINT, x.type(r.payload));
        assertEquals(5, x.childCount(r.payload));
        assertEquals(TlvType.SUBSCRIBER, x.type(x.child(r.payload, 0)));
        assertEquals("09000000", hex(r.bytes(x.child(r.payload, 1))));
        assertEquals(TlvType.SUBSCRIBER, x.type(x.child(r.payload, 2)));
        assertEquals("09000000", hex(r.bytes(x.child(r.payload, 3))));
        assertEquals("09000000", hex(r.bytes(x.child(r.payload, 4))), "a callback edge is listed as a hole");
        cb.close(); // positions 3 and 4 are now trailing holes: omitted
        Frames.Reply r2 = request(listRead());
        assertEquals(3, r2.idx.childCount(r2.payload));
        assertEquals("09000000", hex(r2.bytes(r2.idx.child(r2.payload, 1))));
    }

    // ---------------------------------------------------------------- §6 identity

    @Test
    void rfc0035_s6_2_duplicateMasksBit9_answersTheExistingEntry_leavesItsState() {
        node.write(temp, Frames.value(5, 1), 0, 5);
        long[] id = append(PEER, EP_A, "/client/a", 0x0200, true); // suspended
        long[] dup = append(PEER, EP_A, "/client/a", 0, false); // absent word = 0 = masked 0x0200
        assertArrayEquals(id, dup);
        assertEquals(0, publishDeliveries(EP_A), "still suspended: the duplicate is not a resume");
        assertEquals(1, request(listRead()).idx.childCount(request(listRead()).payload));
    }

    @Test
    void rfc0035_s6_2_oneShotBitTakesPartInTheComparison() {
        node.write(temp, Frames.value(5, 1), 0, 5);
        long[] standing = append(PEER, EP_A, "/client/a", 0, false);
        long[] once = append(PEER, EP_A, "/client/a", 0x0100, true);
        assertNotEquals(standing[0], once[0]);
        assertEquals(2, publishDeliveries(EP_A));
        assertEquals(1, publishDeliveries(EP_A), "the one_shot went after its first delivery");
    }

    @Test
    void rfc0035_s6_2_otherHolderIsNotADuplicate() {
        node.write(temp, Frames.value(5, 1), 0, 5);
        long[] a = append(PEER, EP_A, "/client/a", 0, false);
        long[] b = append(OTHER_PEER, EP_A, "/client/a", 0, false);
        assertNotEquals(a[0], b[0]);
    }

    @Test
    void rfc0035_s6_1_generationGuardsClearToggleAndReplace() {
        node.write(temp, Frames.value(5, 1), 0, 5);
        long[] id = append(PEER, EP_A, "/client/a", 0, true);
        long stale = id[1] + 1;
        byte[] r = rendering((int) id[0]);
        assertEquals(WireError.PATH_NOT_FOUND, request(slotWrite((int) id[0], stale, hex("09000000"), EP_A)).errorCode());
        assertEquals(WireError.PATH_NOT_FOUND, request(slotWrite((int) id[0], stale, withBit9(r, true), EP_A)).errorCode());
        assertEquals(WireError.PATH_NOT_FOUND,
                request(slotWrite((int) id[0], stale, Frames.subscriber("/x", 0, false, false), EP_A)).errorCode());
        assertArrayEquals(r, rendering((int) id[0]));
        assertEquals(1, publishDeliveries(EP_A));
        assertEquals(0, request(slotWrite((int) id[0], id[1], withBit9(r, true), EP_A)).kind, "the right generation passes");
    }

    @Test
    void rfc0035_s6_1_generationBumpsOnEveryAdmission() {
        node.write(temp, Frames.value(5, 1), 0, 5);
        long[] a = append(PEER, EP_A, "/client/a", 0, false);
        request(slotWrite((int) a[0], -1, hex("09000000"), EP_A));
        long[] b = append(PEER, EP_A, "/client/a", 0, false);
        assertEquals(a[0], b[0]);
        assertNotEquals(a[1], b[1]);
        assertEquals(WireError.PATH_NOT_FOUND, request(slotWrite((int) a[0], a[1], hex("09000000"), EP_A)).errorCode(),
                "a stale identity cannot clear the new occupant");
    }

    // ---------------------------------------------------------------- §7.2 the gate

    @Test
    void rfc0035_s7_2_holderManagesItsOwnSlot_othersAreRefused_ownerMayManageAny() {
        node.write(temp, Frames.value(5, 1), 0, 5);
        long[] id = append(PEER, EP_A, "/client/a", 0, true);
        byte[] susp = withBit9(rendering((int) id[0]), true);
        assertEquals(WireError.ACCESS_DENIED, request(OTHER_PEER, slotWrite((int) id[0], -1, susp, EP_B)).errorCode());
        assertEquals(WireError.ACCESS_DENIED, request(OTHER_PEER, slotWrite((int) id[0], -1, hex("09000000"), EP_B)).errorCode());
        assertEquals(WireError.ACCESS_DENIED,
                request(OTHER_PEER, slotWrite((int) id[0], -1, Frames.subscriber("/b", 0, false, false), EP_B)).errorCode());
        assertEquals(1, publishDeliveries(EP_A));
        assertEquals(0, owner(slotWrite((int) id[0], -1, susp, Frames.REPLY_EP)).kind, "the owner toggles anyone's slot");
        assertEquals(0, publishDeliveries(EP_A));
        assertEquals(0, request(PEER, slotWrite((int) id[0], -1, rendering((int) id[0]).length > 0 ? withBit9(susp, false) : null, EP_A)).kind,
                "the holder resumes its own edge");
        assertEquals(1, publishDeliveries(EP_A));
    }

    @Test
    void rfc0035_s7_2_withoutReadEverythingIsDenied_beforeTheSlotIsLookedUp() {
        NodeHarness h = new NodeHarness(c -> c.accessPolicy(new AccessPolicy() {
            @Override
            public boolean canRead(byte[] k, int o, int l, int linkId, int peer) {
                return peer != OTHER_PEER;
            }
        }));
        h.node.write(h.temp, Frames.value(5, 1), 0, 5);
        assertEquals(WireError.ACCESS_DENIED, h.request(OTHER_PEER, h.subscribeReq("/a", 0, false, false, EP_B)).errorCode());
        assertEquals(WireError.ACCESS_DENIED,
                h.request(OTHER_PEER, h.slotWrite(99, -1, hex("09000000"), EP_B)).errorCode(), "denied, not path::invalid");
        assertEquals(WireError.ACCESS_DENIED, h.request(OTHER_PEER, h.listRead()).errorCode());
        assertEquals(WireError.ACCESS_DENIED, h.request(OTHER_PEER, Frames.fwd(0, h.temp.tlv(), null, EP_B)).errorCode());
        assertEquals(0, h.request(PEER, h.subscribeReq("/a", 0, false, false, EP_A)).kind);
    }

    // ---------------------------------------------------------------- §9 reaping and traffic

    @Test
    void rfc0035_s9_1_toggleSendsNothingToTheSubscriber() {
        node.write(temp, Frames.value(5, 1), 0, 5);
        long[] id = append(PEER, EP_A, "/client/a", 0, true);
        byte[] susp = withBit9(rendering((int) id[0]), true);
        List<byte[]> out = exchange(PEER, slotWrite((int) id[0], -1, susp, Frames.EMPTY_PATH));
        assertEquals(0, out.size(), "empty src: applied silently, and the toggle itself sends nothing");
        assertEquals(0, publishDeliveries(EP_A));
    }

    @Test
    void rfc0035_s9_3_silenceNeverReaps_onlyLinkDepartureClearOrReplace() {
        node.write(temp, Frames.value(5, 1), 0, 5);
        long[] id = append(PEER, EP_A, "/client/a", 0x0200, true);
        for (int i = 0; i < 100; i++) {
            clock.advanceMillis(3_600_000);
            node.tick();
        }
        assertEquals(0, readSlot((int) id[0]).kind, "100 hours of silence: still there");
        node.onPeerDown(link, OTHER_PEER);
        assertEquals(0, readSlot((int) id[0]).kind, "another peer's departure does not touch it");
        node.onPeerDown(link, PEER);
        assertEquals(WireError.PATH_NOT_FOUND, readSlot((int) id[0]).errorCode(), "departure of its link reaps it");
    }

    @Test
    void rfc0035_s9_3_retirementOfTheProducerVertexReapsItsSlots() {
        node.write(temp, Frames.value(5, 1), 0, 5);
        append(PEER, EP_A, "/client/a", 0x0200, true);
        io.spectrum.node.api.Subscription local = node.subscribe(temp, 0, (s, v, q, st) -> { });
        assertEquals(WireError.PATH_IN_USE, narrow().retire(NodePath.of("/sensor")), "has children");
        assertEquals(WireError.OK, narrow().retire(temp));
        assertTrue(!local.isOpen());
        assertEquals(WireError.PATH_NOT_FOUND, request(listRead()).errorCode());
        assertEquals(0, node.listenerCount(NodePath.of("/sensor")));
        node.write(temp, Frames.value(6, 1), 0, 5);
        assertEquals(WireError.PATH_NOT_FOUND, readSlot(0).errorCode(), "re-created vertex starts with no slots");
    }

    @Test
    void rfc0035_durabilityLatch_deliversOnceBeforeTheReply_onlyToThatEdge() {
        node.write(temp, Frames.value(5, 1), 0, 5);
        append(PEER, EP_B, "/client/b", 0, false);
        List<byte[]> out = exchange(PEER, subscribeReq("/client/a", 0x0020, true, false, EP_A));
        assertEquals(2, out.size());
        Frames.Reply first = Frames.parse(out.get(0));
        assertEquals(1, first.op);
        assertArrayEquals(EP_A, first.bytes(first.dst));
        assertArrayEquals(Frames.value(5, 1), first.payloadBytes());
        assertEquals(3, Frames.parse(out.get(1)).op);
        // no value yet: no latch
        NodeHarness h = new NodeHarness();
        h.node.write(NodePath.of("/sensor/other"), Frames.value(1, 1), 0, 5);
        h.node.write(h.temp, Frames.value(1, 1), 0, 5);
        h.node.clear(h.temp, false);
        assertEquals(1, h.exchange(PEER, h.subscribeReq("/client/a", 0x0020, true, false, EP_A)).size());
    }

    @Test
    void rfc0035_s4_4_arm3_ownerReplacingAnInProcessEdgeReapsItsHandle() {
        node.write(temp, Frames.value(5, 1), 0, 5);
        List<String> got = new java.util.ArrayList<>();
        io.spectrum.node.api.Subscription local = node.subscribe(temp, 0, (s, v, q, st) -> got.add("local"));
        assertEquals(0, owner(slotWrite(local.index(), -1, Frames.subscriber("/mirror/x", 0, false, false), Frames.REPLY_EP)).kind);
        assertTrue(!local.isOpen());
        assertEquals(WireError.PATH_NOT_FOUND, local.suspend());
        node.write(temp, Frames.value(6, 1), 0, 5);
        assertEquals(List.of(), got);
        byte[] out = new byte[8];
        assertEquals(5, node.read(NodePath.of("/mirror/x"), out, 0, 8), "the replacement edge delivers to its target");
    }

    @Test
    void subscribeWithEmptySrc_isDroppedSilently() {
        node.write(temp, Frames.value(5, 1), 0, 5);
        assertEquals(0, exchange(PEER, subscribeReq("/client/a", 0, false, false, Frames.EMPTY_PATH)).size());
        assertEquals(0, node.listenerCount(temp));
    }

    @Test
    void ownerAppend_withLocalTarget_deliversByAssigningTheTarget() {
        node.write(temp, Frames.value(5, 1), 0, 5);
        assertEquals(0, owner(subscribeReq("/mirror/temp", 0x0020, true, false, Frames.REPLY_EP)).kind);
        byte[] out = new byte[8];
        assertEquals(5, node.read(NodePath.of("/mirror/temp"), out, 0, 8), "latched into the target");
        node.write(temp, Frames.value(6, 1), 0, 5);
        node.read(NodePath.of("/mirror/temp"), out, 0, 8);
        assertEquals(6, out[4]);
    }
}
