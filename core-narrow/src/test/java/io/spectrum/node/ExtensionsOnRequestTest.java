package io.spectrum.node;

import static io.spectrum.node.Frames.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 8 item 6: a plain libtracer v1 peer sees byte-for-byte v1; only a peer that announced the
 * extensions (docs/extensions.md, "Announcement") gets the extended forms. Byte-level.
 */
class ExtensionsOnRequestTest extends NodeHarness {
    /** {@code $node/caps} as NarrowNode publishes it: SETTINGS{core 1, rfc0035 1, topic 1}. */
    static final String PLAIN_CAPS = "0b402e00" + "02000400636f7265" + "010002000100" + "0200070072666330303335"
            + "010002000100" + "02000500746f706963" + "010002000100";
    /** The pair CapsProbe.stampBoot appends: NAME "spectrum.boot" VALUE u32. */
    static final String BOOT_PAIR = "02000d00737065637472756d2e626f6f74" + "01000400efbeadde";
    static final String SPECTRUM = hex("spectrum.".getBytes());
    /** FWD{REPLY, dst /reply-ep, src /sensor/temp, kind RESULT}: libtracer v1's answer to an append. */
    static final String V1_APPEND_ANSWER = "0f402700" + "0100010003" + "06000900087265706c792d6570"
            + "06000c000673656e736f720474656d70" + "0100010000";

    /** Gives $node/caps the boot key a Spectrum process adds (runtime's CapsProbe.stampBoot). */
    void stampBoot() {
        byte[] caps = hex("0b404700" + PLAIN_CAPS.substring(8) + BOOT_PAIR);
        assertEquals(WireError.OK, node.write(NarrowNode.CAPS, caps, 0, caps.length));
    }

    byte[] capsRead() {
        return Frames.fwd(0, NarrowNode.CAPS.tlv(), null, Frames.REPLY_EP);
    }

    byte[] append() {
        return subscribeReq("/reply-ep", 0, false, false, Frames.REPLY_EP);
    }

    @Test
    void plainPeer_appendAnswer_isV1_resultWithNoPayload() {
        node.write(temp, Frames.value(0, 1), 0, 5);
        Frames.Reply r = request(append());
        assertEquals(V1_APPEND_ANSWER, hex(r.frame));
        // replace (arm 3) and a duplicate append answer the same way
        assertEquals(V1_APPEND_ANSWER, hex(request(append()).frame), "duplicate append");
        Frames.Reply replace = request(slotWrite(0, -1, Frames.subscriber("/reply-ep/2", 0, false, false), Frames.REPLY_EP));
        assertEquals(0, replace.kind);
        assertEquals(TlvIndex.NONE, replace.payload, "replace: RESULT, no payload");
        assertFalse(hex(replace.frame).contains("1040"), "no FIELD in the answer");
    }

    @Test
    void plainPeer_capsAnswer_hasNoSpectrumKey_announcingPeerGetsTheBootKey() {
        stampBoot();
        Frames.Reply plain = request(PEER, capsRead());
        assertEquals(0, plain.kind);
        assertEquals(PLAIN_CAPS, hex(plain.payloadBytes()), "the v1 caps: no spectrum.boot");
        assertFalse(hex(plain.frame).contains(SPECTRUM), "no spectrum.* byte anywhere in the frame");

        Frames.Reply ext = request(OTHER_PEER, Frames.announced(capsRead()));
        assertEquals("0b404700" + PLAIN_CAPS.substring(8) + BOOT_PAIR, hex(ext.payloadBytes()),
                "the announcing request is itself answered with the extended caps");
        assertEquals(PLAIN_CAPS, hex(request(PEER, capsRead()).payloadBytes()), "announcement is per peer");
        assertEquals("0b404700" + PLAIN_CAPS.substring(8) + BOOT_PAIR, hex(request(OTHER_PEER, capsRead()).payloadBytes()),
                "an announcement lasts: later plain-looking requests from that peer get the extended forms");
    }

    @Test
    void announcingPeer_appendAnswer_isTheSlotIdentity() {
        node.write(temp, Frames.value(0, 1), 0, 5);
        Frames.Reply r = request(Frames.announced(append()));
        assertEquals(0, r.kind);
        // FIELD{NAME subscribers, VALUE u32 0, VALUE u8 1, NAME spectrum.gen, VALUE u32 generation 1, VALUE u8 1}
        assertEquals("10403900" + "02000b00" + hex("subscribers".getBytes()) + "0100040000000000" + "0100010001"
                + "02000c00" + hex("spectrum.gen".getBytes()) + "0100040001000000" + "0100010001",
                hex(r.payloadBytes()));
    }

    @Test
    void announcementAfterAWritePayload_isReadThere_notTakenForThePayload() {
        node.write(temp, Frames.value(0, 1), 0, 5);
        Frames.Reply w = request(Frames.announced(Frames.fwd(1, temp.tlv(), null, Frames.REPLY_EP, Frames.value(7, 1))));
        assertEquals(0, w.kind);
        byte[] out = new byte[8];
        assertEquals(5, node.read(temp, out, 0, 8), "the payload is the VALUE, not the announcement");
        Frames.Reply a = request(append());
        assertEquals(TlvType.FIELD, a.idx.type(a.payload), "the peer is now announced");
    }

    @Test
    void aWritePayloadThatIsASettings_isNotAnAnnouncement() {
        node.write(temp, Frames.value(0, 1), 0, 5);
        byte[] settings = hex("0b401600" + "02000c00" + hex("spectrum.ext".getBytes()) + "0100020001 00".replace(" ", ""));
        assertEquals(0, request(Frames.fwd(1, temp.tlv(), null, Frames.REPLY_EP, settings)).kind);
        assertEquals(V1_APPEND_ANSWER, hex(request(append()).frame), "still a plain peer");
    }

    @Test
    void peerDown_forgetsTheAnnouncement() {
        node.write(temp, Frames.value(0, 1), 0, 5);
        announce(PEER);
        Frames.Reply a = request(append());
        assertEquals(TlvType.FIELD, a.idx.type(a.payload));
        node.onPeerDown(link, PEER);
        List<byte[]> out = exchange(PEER, append());
        assertEquals(V1_APPEND_ANSWER, hex(out.get(out.size() - 1)), "whoever comes up in its place starts plain");
    }

    @Test
    void ownerIsAlwaysExtended_andAFullTableAnswersPlain() {
        node.write(temp, Frames.value(0, 1), 0, 5);
        Frames.Reply o = owner(append());
        assertEquals(TlvType.FIELD, o.idx.type(o.payload), "the owner is Spectrum itself");
        PeerExtensions t = new PeerExtensions(2);
        t.announce(0, 1, 1);
        t.announce(0, 2, 1);
        t.announce(0, 3, 1);
        assertEquals(0, t.version(0, 3), "no room: plain");
        assertEquals(1, t.resource.refused());
        t.forget(0, 1);
        assertEquals(1, t.version(0, 2));
        assertEquals(0, t.version(0, 1));
        assertEquals(1, t.resource.inUse());
    }
}
