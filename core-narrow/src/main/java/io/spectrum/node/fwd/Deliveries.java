package io.spectrum.node.fwd;

import io.spectrum.wire.FwdView;
import io.spectrum.wire.Names;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

/**
 * The frames a node sends unasked, for both cores: a routed edge's delivery (FWD WRITE to the
 * subscriber's stored route, empty src, the value, the topic stamp when the edge asked), metered by
 * the holder's delivery share, and the active / idle notice to a publisher that asked for them.
 * A delivery is written straight into an outbound buffer its link lends ({@link io.spectrum.link.Link#claim}:
 * a QueuedLink's pooled frame, so it is not copied again to be queued), else into the node's
 * transmit buffer and sent. Allocation-free.
 */
public final class Deliveries {
    private final LinkTable links;
    private final PeerShares shares;
    private final FrameBuffers buffers;
    private final GoneHolders gone;

    Deliveries(FwdParts p) {
        this.links = p.links;
        this.shares = p.shares;
        this.buffers = p.buffers;
        this.gone = p.gone;
    }

    /**
     * Sends one delivery of the value {@code r} to (link, peer) at {@code route[ro, +rl)}; {@code word}
     * is the slot word (its STAMP bits say whether and how the stamp rides along).
     *
     * @return false when the delivery was dropped: the peer is over its outbound rate (counted), or
     *     the link could not take the frame now (FLOW_BACKPRESSURE); a one_shot edge stays, and the
     *     caller marks the edge dirty so its current value is sent later (docs/node.md "Dirty edges")
     */
    public boolean routed(int word, int li, int peer, byte[] route, int ro, int rl, ValueRecord r) {
        if (!shares.allowDelivery(li, peer)) {
            return false;
        }
        final byte[] lent = links.claim(li, peer);
        if (lent != null) { // written in the link's own buffer: nothing copies the frame again to queue it
            TlvWriter t = write(buffers.writerOver(lent, 0, links.claimRoom(li, lent)), word, route, ro, rl, r);
            if (t.error() == WireError.OK) {
                return sent(li, peer, links.commitClaim(li, t.length()));
            }
            links.abortClaim(li); // did not fit the lent buffer: written and sent below, as for any link
        }
        TlvWriter t = write(buffers.txWriter(), word, route, ro, rl, r);
        if (t.error() == WireError.OK) {
            return sent(li, peer, links.send(li, peer, buffers.tx, t.length()));
        }
        return true;
    }

    /** The delivery frame: FWD WRITE, the route, empty src, the value and, when the word asks, the stamp. */
    private static TlvWriter write(TlvWriter t, int word, byte[] route, int ro, int rl, ValueRecord r) {
        t.begin(TlvType.FWD).value(FwdView.OP_WRITE, 1)
                .raw(route, ro, rl)
                .raw(Names.EMPTY_PATH)
                .raw(r.value, r.valueOff, r.valueLen);
        if ((word & FwdStore.STAMP) != 0) {
            stamp(t, word, r);
        }
        return t.end();
    }

    /** What a delivery's send answered {@code rc} means: false only for FLOW_BACKPRESSURE; a channel gone is noted. */
    private boolean sent(int li, int peer, int rc) {
        gone.sendFailed(li, peer, rc); // a channel gone: its holder is reaped after the fan-out
        return rc != WireError.FLOW_BACKPRESSURE;
    }

    /**
     * Writes the topic stamp, the one spelling of it (docs/extensions.md "Delivery stamp"), used by
     * every delivery and by a READ answer that asked for it: {@code SETTINGS{NAME "spectrum.topic",
     * SETTINGS{seq, stale, op, [path], [dlv, replaced], [origin], [reason]}}}. {@code path} when the
     * word has {@link FwdStore#STAMP_PATH}, {@code dlv} / {@code replaced} when {@code dlv > 0},
     * {@code origin} when the value has one ({@code origin > 0}: ms since the Unix epoch, docs/extensions.md
     * "Origin time"), and the stale value's reason last, when it is stale and has one (a fresh value's
     * stamp is unchanged by it).
     */
    static void stamp(TlvWriter t, int word, ValueRecord r) {
        t.begin(TlvType.SETTINGS).leaf(TlvType.NAME, Names.TOPIC)
                .begin(TlvType.SETTINGS)
                .leaf(TlvType.NAME, Names.STAMP_SEQ).value(r.seq, 8)
                .leaf(TlvType.NAME, Names.STAMP_STALE).value(r.stale ? 1 : 0, 1)
                .leaf(TlvType.NAME, Names.STAMP_OP).value(r.deleted ? 1 : 0, 1);
        if ((word & FwdStore.STAMP_PATH) != 0) { // which child changed: the written vertex's PATH
            t.leaf(TlvType.NAME, Names.STAMP_PATH).leaf(TlvType.PATH, r.key, r.keyOff, r.keyLen);
        }
        if (r.dlv > 0) { // a delivery-mode edge: its delivery number, for the consumed message
            t.leaf(TlvType.NAME, Names.STAMP_DLV).value(r.dlv, 8)
                    .leaf(TlvType.NAME, Names.STAMP_REPLACED).value(r.replaced, 8);
        }
        if (r.origin > 0) { // when the value came into the fabric: its first host's clock
            t.leaf(TlvType.NAME, Names.STAMP_ORIGIN).value(r.origin, 8);
        }
        if (r.publisherLen > 0) { // who published it last: a READ's answer from a node that names publishers
            t.leaf(TlvType.NAME, Names.STAMP_PUBLISHER).leaf(TlvType.NAME, r.publisher, 0, r.publisherLen);
        }
        if (r.stale && r.reasonLen > 0) { // why it is stale: last, so a fresh value's stamp is unchanged
            t.leaf(TlvType.NAME, Names.STAMP_REASON).leaf(TlvType.VALUE, r.reason, r.reasonOff, r.reasonLen);
        }
        t.end().end();
    }

    /** The active / idle notice to a remote publisher at {@code route[ro, +rl)} about the vertex keyed {@code key}. */
    public void notice(int li, int peer, byte[] route, int ro, int rl, boolean active, byte[] key, int ko, int kl, int n) {
        TlvWriter t = buffers.scratchWriter();
        t.begin(TlvType.FWD).value(FwdView.OP_WRITE, 1)
                .raw(route, ro, rl)
                .raw(Names.EMPTY_PATH)
                .begin(TlvType.SETTINGS)
                .leaf(TlvType.NAME, Names.ACTIVITY).value(active ? 1 : 0, 1)
                .leaf(TlvType.NAME, Names.ACTIVITY_PATH).leaf(TlvType.PATH, key, ko, kl)
                .leaf(TlvType.NAME, Names.ACTIVITY_SUBSCRIBERS).value(n, 4)
                .end().end();
        if (t.error() == WireError.OK) {
            links.send(li, peer, buffers.scratch, t.length());
        }
    }
}
