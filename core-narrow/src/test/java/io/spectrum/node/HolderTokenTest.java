package io.spectrum.node;

import io.spectrum.testing.MemoryLink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.fwd.RemoteClient;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.Extensions;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;

/**
 * Issue 11 item 3, holders that cannot be impersonated cheaply (docs/security.md, "Holders and
 * spoofing"): forged peers on an in-process link, one ManualClock. A forged source is a peer handle
 * the forger injects frames as (on UDP the source ip:port is the identity); what the node sends to
 * that handle goes to the real peer, never to the forger.
 */
class HolderTokenTest {
    final ManualClock clock = new ManualClock(0);
    final ServingNode board = NodeHarness.core.apply(NodeConfig.builder().clock(clock).build());
    final ServingNode host = NodeHarness.core.apply(NodeConfig.builder().clock(clock).remoteWritesToUndeclared(true).build());
    final MemoryLink boardSide = new MemoryLink(1); // the board's link; its peer 0 is the host's address
    final MemoryLink hostSide = new MemoryLink(2);
    final NodePath temp = NodePath.of("/sensor/temp");
    final NodePath mirror = NodePath.of("/boards/b1/temp");
    final byte[] ret = NodePath.of("/forger/r").tlv();
    int boardSent;
    int hostSent;

    HolderTokenTest() {
        board.attach(boardSide);
        host.attach(hostSide);
        board.write(temp, Frames.value(20, 1), 0, 5);
    }

    /** Moves frames both ways between host and board (the board's peer 0 is the host). */
    void pump() {
        for (int round = 0; round < 20; round++) {
            boolean moved = false;
            while (hostSent < hostSide.sentCount()) {
                boardSide.inject(0, hostSide.sentAt(hostSent++));
                moved = true;
            }
            while (boardSent < boardSide.sentCount()) {
                if (boardSide.sentPeer(boardSent) == 0) {
                    hostSide.inject(0, boardSide.sentAt(boardSent));
                }
                boardSent++;
                moved = true;
            }
            board.poll();
            host.poll();
            if (!moved) {
                return;
            }
        }
    }

    /** The forger's frame as if from {@code peer}; returns the board's answer (sent to that address). */
    Frames.Reply forge(int peer, byte[] frame) {
        pump();
        int before = boardSide.sentCount();
        boardSide.inject(peer, frame);
        board.poll();
        assertEquals(before + 1, boardSide.sentCount(), "one answer");
        assertEquals(peer, boardSide.sentPeer(before), "sent to the claimed address");
        Frames.Reply r = Frames.parse(boardSide.sentAt(before));
        boardSent = boardSide.sentCount(); // the forger's answers are not the host's business here
        return r;
    }

    /** The FWD request with the announcement and the holder pair ({@code token}) as its last child. */
    static byte[] withHold(byte[] fwd, long token) {
        byte[] b = new byte[fwd.length + 64];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FWD).raw(fwd, 4, fwd.length - 4);
        Extensions.announce(w, token).end();
        return java.util.Arrays.copyOf(b, w.length());
    }

    byte[] clear(int n, long gen) {
        return Frames.fwd(FwdView.OP_WRITE, temp.tlv(), Frames.subsField(n, 1, gen), ret, new byte[] {9, 0, 0, 0});
    }

    byte[] append(String target) {
        return Frames.fwd(FwdView.OP_WRITE, temp.tlv(), Frames.subsField(-1, 1, -1), NodePath.of(target).tlv(),
                Frames.subscriber(target, 0, false, false));
    }

    int slotsListed() {
        byte[] reply = new byte[1024];
        byte[] req = Frames.fwd(FwdView.OP_READ, temp.tlv(), Frames.subsField(-1, 1, -1), ret);
        int n = board.handleOwnerRequest(req, 0, req.length, reply, 0, reply.length);
        Frames.Reply r = Frames.parse(java.util.Arrays.copyOf(reply, n));
        int k = 0;
        for (int c = r.idx.firstChild(r.payload); c != io.spectrum.wire.TlvIndex.NONE; c = r.idx.nextSibling(c)) {
            if (r.idx.type(c) == TlvType.SUBSCRIBER) {
                k++;
            }
        }
        return k;
    }

    long tokenIn(Frames.Reply r) {
        return new Extensions().holdToken(r.idx, r.trailing);
    }

    @Test
    void theHostHoldsWithAToken_aSpoofedClearFromItsAddressIsRefusedAndTheSlotStays() {
        int h = host.subscribeRemote(hostSide, 0, temp, mirror, 0x0020);
        pump();
        RemoteClient rc = host.remote();
        assertEquals(RemoteClient.ACKED, rc.state(h));
        assertTrue(rc.holdsToken(hostSide, 0), "the board challenged; the host answered from its own address");
        assertEquals(1, board.listenerCount(temp));
        int n = rc.remoteIndex(h);
        long g = rc.remoteGeneration(h);

        // a third party forges the host's address: plain clear, announced clear with a guessed token,
        // token 0 (asking for a challenge), and without the generation
        Frames.Reply plain = forge(0, clear(n, g));
        assertEquals(WireError.ACCESS_DENIED, plain.errorCode());
        for (long guess : new long[] {0, 1, 0x7FFF_FFFF_FFFF_FFFFL}) {
            Frames.Reply r = forge(0, withHold(clear(n, g), guess));
            assertEquals(WireError.ACCESS_DENIED, r.errorCode(), "guess " + guess);
        }
        assertEquals(WireError.ACCESS_DENIED, forge(0, clear(n, -1)).errorCode());
        // nor can it toggle through a replace, hold an AWAIT, or append in the host's name
        assertEquals(WireError.ACCESS_DENIED, forge(0, Frames.fwd(FwdView.OP_WRITE, temp.tlv(),
                Frames.subsField(n, 1, g), ret, Frames.subscriber("/forger/r", 0x0200, true, false))).errorCode());
        assertEquals(WireError.ACCESS_DENIED, forge(0, Frames.fwd(FwdView.OP_AWAIT, temp.tlv(), null, ret)).errorCode());
        assertEquals(WireError.ACCESS_DENIED, forge(0, append("/forger/r")).errorCode());
        assertEquals(1, board.listenerCount(temp), "the host's slot stays");
        assertEquals(1, slotsListed(), "and no slot was added in its name");
        board.write(temp, Frames.value(21, 1), 0, 5);
        pump();
        byte[] out = new byte[8];
        assertEquals(5, host.read(mirror, out, 0, 8));
        assertEquals(21, out[4], "the host still gets its values");

        // plain READs stay stateless: the forged address may read what anyone may
        assertEquals(0, forge(0, Frames.fwd(FwdView.OP_READ, temp.tlv(), null, ret)).kind);

        // the holder itself, whose requests carry the token, clears it
        int k = rc.unsubscribe(h);
        pump();
        assertEquals(WireError.OK, rc.requestError(k));
        rc.release(k);
        assertEquals(0, board.listenerCount(temp));
    }

    @Test
    void aForgedHoldingAppendCreatesNothing_theClaimedAddressGetsOneChallenge() {
        // peer 3: an address that never spoke; the forger asks to hold in its name
        Frames.Reply r = forge(3, withHold(append("/victim/t"), 0));
        assertEquals(WireError.ACCESS_DENIED, r.errorCode());
        long token = tokenIn(r);
        assertTrue(token > 0, "the challenge went to peer 3's address, not to the forger");
        assertEquals(0, slotsListed(), "no slot: no datagrams will flow to the victim");
        // a holder at that address that answers the challenge (echoes the token) holds from then on
        Frames.Reply ok = forge(3, withHold(append("/victim/t"), token));
        assertEquals(0, ok.kind);
        assertEquals(1, slotsListed());
        // a second challenge to the same address hands the same token (a holder that lost it recovers)
        assertEquals(token, tokenIn(forge(3, withHold(append("/victim/u"), 0))));
    }

    @Test
    void aPlainV1PeerHoldsAsInLibtracer_itsSlotIsClearedOnlyFromItsAddress() {
        Frames.Reply a = forge(1, append("/plain/t"));
        assertEquals(0, a.kind, "a plain append is admitted with no handshake");
        assertEquals(1, board.listenerCount(temp));
        // RFC-0035 gate: another address cannot clear it
        assertEquals(WireError.ACCESS_DENIED, forge(2, clear(0, -1)).errorCode());
        assertEquals(1, board.listenerCount(temp));
        // the documented exposure: a forger of the plain peer's own address can
        assertEquals(0, forge(1, clear(0, -1)).kind);
        assertEquals(0, board.listenerCount(temp));
    }
}
