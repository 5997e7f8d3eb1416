package io.spectrum.node;

import static io.spectrum.node.Frames.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.AccessMask;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The vertex declaration at the node: enforced on every write, rights for remote callers, readable. */
class DeclarationTest {
    static final VertexSchema LED = VertexSchema.value(1, false).range(0, 1).writable().description("LED").build();
    static final VertexSchema TEMP = VertexSchema.value(2, true).unit("Cel").scale(0.01).readOnly().build();
    static final VertexSchema NAME = VertexSchema.name(8).readOnly().build();
    final NodePath led = NodePath.of("/board/led");
    final NodePath temp = NodePath.of("/board/temp");
    final NodePath name = NodePath.of("/board/name");

    private NodeHarness board() {
        NodeHarness h = new NodeHarness(c -> c.remoteWritesToUndeclared(false)); // the default
        assertEquals(WireError.OK, h.node.declare(led, LED));
        assertEquals(WireError.OK, h.node.declare(temp, TEMP));
        assertEquals(WireError.OK, h.node.declare(name, NAME));
        assertEquals(WireError.OK, h.node.write(led, Frames.value(0, 1), 0, 5));
        assertEquals(WireError.OK, h.node.write(temp, Frames.value(2328, 2), 0, 6));
        return h;
    }

    private static byte[] nameTlv(String s) {
        byte[] b = new byte[64];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length).leaf(TlvType.NAME, s.getBytes());
        return java.util.Arrays.copyOf(b, w.length());
    }

    private static byte[] valueOf(NodeHarness h, NodePath p) {
        byte[] b = new byte[64];
        int n = h.node.read(p, b, 0, b.length);
        return n < 0 ? null : java.util.Arrays.copyOf(b, n);
    }

    @Test
    void localWritesThatBreakTheDeclarationAreRefusedAndChangeNothing() {
        NodeHarness h = board();
        List<Long> seen = new ArrayList<>();
        h.node.subscribe(led, 0, (s, v, seq, st) -> seen.add(seq));
        long seq = h.node.sequence(led);
        byte[] before = valueOf(h, led);
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, h.node.write(led, nameTlv("on"), 0, 6), "a NAME into a u8");
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, h.node.write(led, Frames.value(1, 4), 0, 8), "a u32 into a u8");
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, h.node.write(led, Frames.value(2, 1), 0, 5), "out of 0..1");
        byte[] user = {(byte) 0x80, 0, 1, 0, 1};
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, h.node.write(led, user, 0, user.length), "a user-type TLV");
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, h.node.write(name, nameTlv("much-too-long"), 0, 17), "over 8 bytes");
        assertArrayEquals(before, valueOf(h, led), "value untouched");
        assertEquals(seq, h.node.sequence(led), "sequence untouched");
        assertEquals(List.of(), seen, "no delivery");
        assertEquals(1, h.node.listenerCount(led), "the subscriber is still there");
        assertEquals(WireError.OK, h.node.write(led, Frames.value(1, 1), 0, 5));
        assertEquals(List.of(seq + 1), seen);
    }

    @Test
    void remoteWritesNeedTheWriteRightAndTheRightShape() {
        NodeHarness h = board();
        long seq = h.node.sequence(led);
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH,
                h.request(Frames.fwd(1, led.tlv(), null, Frames.REPLY_EP, nameTlv("on"))).errorCode());
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH,
                h.request(Frames.fwd(1, led.tlv(), null, Frames.REPLY_EP, Frames.value(3, 1))).errorCode());
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH,
                h.request(Frames.fwd(1, led.tlv(), null, Frames.REPLY_EP, Frames.value(1, 2))).errorCode(), "a u16 into a u8");
        assertEquals(seq, h.node.sequence(led));
        assertEquals(WireError.OK, h.request(Frames.fwd(1, led.tlv(), null, Frames.REPLY_EP, Frames.value(1, 1))).errorCode());
        assertEquals(seq + 1, h.node.sequence(led));

        long tseq = h.node.sequence(temp);
        assertEquals(WireError.ACCESS_DENIED,
                h.request(Frames.fwd(1, temp.tlv(), null, Frames.REPLY_EP, Frames.value(1, 2))).errorCode(), "read-only");
        assertEquals(tseq, h.node.sequence(temp));
        assertEquals(WireError.OK, h.node.write(temp, Frames.value(2400, 2), 0, 6), "the owner writes it");
    }

    @Test
    void undeclaredVerticesRefuseRemoteWritesUnlessTheOwnerOpensThem() {
        NodeHarness closed = board();
        NodePath free = NodePath.of("/board/free");
        closed.node.write(free, Frames.value(1, 4), 0, 8);
        assertEquals(WireError.ACCESS_DENIED,
                closed.request(Frames.fwd(1, free.tlv(), null, Frames.REPLY_EP, Frames.value(2, 4))).errorCode());
        assertEquals(WireError.ACCESS_DENIED,
                closed.request(Frames.fwd(1, NodePath.of("/").tlv(), null, Frames.REPLY_EP, Frames.value(2, 4))).errorCode());
        NodeHarness open = new NodeHarness(c -> c.remoteWritesToUndeclared(true));
        open.node.write(free, Frames.value(1, 4), 0, 8);
        assertEquals(WireError.OK, open.request(Frames.fwd(1, free.tlv(), null, Frames.REPLY_EP, Frames.value(2, 4))).errorCode());
    }

    @Test
    void readAndSubscribeRightsGateReadsAwaitsTheListAndAppends() {
        NodeHarness h = new NodeHarness();
        NodePath secret = NodePath.of("/board/secret");
        assertEquals(WireError.OK, h.node.declare(secret, VertexSchema.value(1, false).rights(AccessMask.WRITE).build()));
        h.node.write(secret, Frames.value(1, 1), 0, 5);
        assertEquals(WireError.ACCESS_DENIED, h.request(Frames.fwd(0, secret.tlv(), null, Frames.REPLY_EP)).errorCode());
        assertEquals(WireError.ACCESS_DENIED, h.request(Frames.fwd(2, secret.tlv(), null, Frames.REPLY_EP)).errorCode());
        assertEquals(WireError.ACCESS_DENIED, h.request(h.listReadOf(secret)).errorCode(), "RFC-0035 §7: the list follows READ");
        assertEquals(WireError.ACCESS_DENIED, h.request(Frames.fwd(1, secret.tlv(), Frames.subsField(-1, 1, -1), Frames.REPLY_EP,
                Frames.subscriber("/c", 0, false, false))).errorCode());
        assertEquals(0, h.node.listenerCount(secret));

        NodePath quiet = NodePath.of("/board/quiet");
        assertEquals(WireError.OK, h.node.declare(quiet, VertexSchema.value(1, false).rights(AccessMask.READ).build()));
        h.node.write(quiet, Frames.value(1, 1), 0, 5);
        assertEquals(WireError.OK, h.request(Frames.fwd(0, quiet.tlv(), null, Frames.REPLY_EP)).errorCode(), "readable");
        assertEquals(WireError.ACCESS_DENIED, h.request(Frames.fwd(1, quiet.tlv(), Frames.subsField(-1, 1, -1), Frames.REPLY_EP,
                Frames.subscriber("/c", 0, false, false))).errorCode(), "no SUBSCRIBE right");
        assertEquals(0, h.node.listenerCount(quiet));
    }

    @Test
    void theDeclarationIsReadableAsSettingsAppKeys() {
        NodeHarness h = board();
        Frames.Reply app = h.request(Frames.fwd(0, temp.tlv(), Frames.field("settings", "app"), Frames.REPLY_EP));
        assertEquals(WireError.OK, app.errorCode());
        byte[] settings = app.payloadBytes();
        VertexSchema back = VertexSchema.fromSettings(settings, 0, settings.length);
        assertNotNull(back);
        assertEquals(TEMP.toString(), back.toString());

        Frames.Reply unit = h.request(Frames.fwd(0, temp.tlv(), Frames.field("settings", "app", "unit"), Frames.REPLY_EP));
        assertArrayEquals(nameTlv("Cel"), unit.payloadBytes());
        assertEquals(WireError.SCHEMA_NOT_FOUND,
                h.request(Frames.fwd(0, temp.tlv(), Frames.field("settings", "app", "colour"), Frames.REPLY_EP)).errorCode());
        assertEquals(WireError.SCHEMA_NOT_FOUND,
                h.request(Frames.fwd(0, temp.tlv(), Frames.field("settings", "reliability"), Frames.REPLY_EP)).errorCode());

        Frames.Reply whole = h.request(Frames.fwd(0, temp.tlv(), Frames.field("settings"), Frames.REPLY_EP));
        assertTrue(hex(whole.payloadBytes()).startsWith("0b40"), "SETTINGS{NAME app, SETTINGS{...}}");
        assertTrue(hex(whole.payloadBytes()).contains(hex(settings)), "the app namespace holds the declaration");

        Frames.Reply schema = h.request(Frames.fwd(0, temp.tlv(), Frames.field("schema"), Frames.REPLY_EP));
        String s = hex(schema.payloadBytes());
        assertTrue(s.startsWith("0740") && s.contains(hex(nameTlv("temp")) + "0b400000" + hex(nameTlv("app")) + hex(settings)), s);

        NodePath plain = NodePath.of("/board/plain");
        h.node.write(plain, Frames.value(1, 1), 0, 5);
        assertArrayEquals(hex("0b400000"), h.request(Frames.fwd(0, plain.tlv(), Frames.field("settings"), Frames.REPLY_EP)).payloadBytes(),
                "an undeclared vertex: the empty core namespace");
        assertEquals(WireError.SCHEMA_NOT_FOUND,
                h.request(Frames.fwd(0, plain.tlv(), Frames.field("settings", "app"), Frames.REPLY_EP)).errorCode());
        assertEquals("0740" , hex(h.request(Frames.fwd(0, plain.tlv(), Frames.field("schema"), Frames.REPLY_EP)).payloadBytes()).substring(0, 4));
    }

    @Test
    void declarationsAreReadOnlyOnTheWire() {
        NodeHarness h = board();
        assertEquals(WireError.ACCESS_DENIED, h.request(Frames.fwd(1, temp.tlv(), Frames.field("settings", "app", "unit"),
                Frames.REPLY_EP, nameTlv("K"))).errorCode());
        assertEquals(WireError.SCHEMA_NOT_FOUND, h.request(Frames.fwd(1, temp.tlv(), Frames.field("settings", "app", "colour"),
                Frames.REPLY_EP, nameTlv("red"))).errorCode());
        assertEquals("Cel", h.node.declaration(temp).unit());
    }

    @Test
    void declaringOverAValueThatDoesNotFitIsRefused() {
        NodeHarness h = new NodeHarness();
        NodePath p = NodePath.of("/x");
        h.node.write(p, Frames.value(300, 2), 0, 6);
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, h.node.declare(p, LED));
        assertNull(h.node.declaration(p), "nothing declared");
        assertEquals(WireError.OK, h.node.declare(p, VertexSchema.value(2, false).build()));
    }

    /** Past the default stale grace (60 s) and a second one: a purge would have run by then. */
    private static final long PAST_GRACE_AND_PURGE_MILLIS = 2 * 60_000 + 1;

    /** What a local subscriber of p is told from now on (seq, stale, deleted). */
    private static List<String> watch(NodeHarness h, NodePath p) {
        List<String> seen = new ArrayList<>();
        h.node.subscribe(p, 0, (s, v, seq, stale) -> seen.add("seq=" + seq + (stale ? " stale" : "") + (v.deleted() ? " deleted" : "")));
        seen.clear(); // the durability latch, if any
        return seen;
    }

    @Test
    void aDeclaredVertexWrittenByARemotePeer_keepsItsValueFresh_afterThatPeerLeavesAndTheGracePasses() {
        NodeHarness h = board();
        assertEquals(WireError.OK, h.request(Frames.fwd(1, led.tlv(), null, Frames.REPLY_EP, Frames.value(1, 1))).errorCode());
        long seq = h.node.sequence(led);
        List<String> seen = watch(h, led);

        h.node.onPeerDown(h.link, NodeHarness.PEER); // the writer's link goes
        assertFalse(h.node.isStale(led), "a board's state is not stale because its writer left");
        h.clock.advanceMillis(PAST_GRACE_AND_PURGE_MILLIS);
        h.node.tick();

        assertArrayEquals(Frames.value(1, 1), valueOf(h, led), "the written value still reads");
        assertFalse(h.node.isStale(led));
        assertEquals(seq, h.node.sequence(led), "no purge spent a number");
        assertEquals(List.of(), seen, "its subscribers are told no stale mark and no delete notice");
    }

    @Test
    void anUndeclaredVertexWrittenByARemotePeer_stillGoesStaleAndIsPurgedAfterThatPeerLeaves() {
        NodeHarness h = new NodeHarness(c -> c.remoteWritesToUndeclared(true));
        assertEquals(WireError.OK, h.node.declare(led, LED));
        NodePath plain = NodePath.of("/board/plain");
        h.node.write(plain, Frames.value(1, 4), 0, 8); // a remote write reaches an existing vertex
        assertEquals(WireError.OK, h.request(Frames.fwd(1, plain.tlv(), null, Frames.REPLY_EP, Frames.value(2, 4))).errorCode());
        assertEquals(WireError.OK, h.request(Frames.fwd(1, led.tlv(), null, Frames.REPLY_EP, Frames.value(1, 1))).errorCode());

        h.node.onPeerDown(h.link, NodeHarness.PEER);
        assertTrue(h.node.isStale(plain), "its meaning was its publisher's presence");
        h.clock.advanceMillis(PAST_GRACE_AND_PURGE_MILLIS);
        h.node.tick();

        assertNull(valueOf(h, plain), "purged after the grace");
        assertArrayEquals(Frames.value(1, 1), valueOf(h, led), "the declared one, written by the same peer, stays");
    }

    @Test
    void theHostThatForwardedAWriteRestarts_theBoardStillHoldsTheValue() {
        NodeHarness h = board();
        // a host forwards a client's write; the board sees the host's peer as the writer
        assertEquals(WireError.OK, h.request(Frames.fwd(1, led.tlv(), null, Frames.REPLY_EP, Frames.value(1, 1))).errorCode());
        h.node.onPeerDown(h.link, NodeHarness.PEER); // the host restarts: its link goes ...
        h.clock.advanceMillis(PAST_GRACE_AND_PURGE_MILLIS);
        h.node.tick();
        h.node.onPeerUp(h.link, NodeHarness.PEER); // ... and comes back
        h.node.tick();

        Frames.Reply r = h.request(Frames.fwd(0, led.tlv(), null, Frames.REPLY_EP)); // the new host reads it
        assertEquals(WireError.OK, r.errorCode());
        assertArrayEquals(Frames.value(1, 1), r.payloadBytes());
        assertFalse(h.node.isStale(led));
    }

    @Test
    void aCopyOfAnotherNodesDeclaredVertex_goesStaleWhenItsSourceLeaves_isNeverPurged_andIsFreshOnItsNextValue() {
        NodeHarness h = new NodeHarness(c -> c.remoteWritesToUndeclared(true)); // a host
        NodePath copy = NodePath.of("/board1/board/led");
        h.node.write(copy, Frames.value(0, 1), 0, 5);
        assertEquals(WireError.OK, h.node.report(copy, LED)); // the board's declaration, mirrored
        assertEquals(WireError.OK, h.request(Frames.fwd(1, copy.tlv(), null, Frames.REPLY_EP, Frames.value(1, 1))).errorCode());

        h.node.onPeerDown(h.link, NodeHarness.PEER); // the board's link goes
        assertTrue(h.node.isStale(copy), "a copy is shown current only while its source is there");
        h.clock.advanceMillis(PAST_GRACE_AND_PURGE_MILLIS);
        h.node.tick();
        assertArrayEquals(Frames.value(1, 1), valueOf(h, copy), "kept while the board is away");
        assertTrue(h.node.isStale(copy));

        h.node.onPeerUp(h.link, NodeHarness.PEER); // the board is back and delivers again
        assertEquals(WireError.OK, h.request(Frames.fwd(1, copy.tlv(), null, Frames.REPLY_EP, Frames.value(1, 1))).errorCode());
        assertFalse(h.node.isStale(copy));
    }
}
