package io.spectrum.host.runtime;

import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodePath;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Names;
import io.spectrum.wire.StatusView;
import io.spectrum.wire.SubscriberRenderer;
import io.spectrum.wire.SubscriberView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The node's {@code :subscribers} surface as its owner (the local host) uses it: FWD requests built
 * with TlvWriter and handed to {@link NarrowNode#handleOwnerRequest}, replies taken apart with
 * FrameDecoder. List = READ {@code :subscribers[]}; suspend / resume = WRITE {@code [N]} with the
 * slot's rendering, bit 9 toggled (RFC-0035 arm 2); clear = WRITE {@code [N]} with the empty STATUS.
 *
 * <p>Must be called on the node's thread (the node is single-threaded). Host side: allocates.
 */
public final class OwnerSurface {
    /** One listed slot: its record as rendered (live bit 9), or a hole. */
    public record Slot(int index, byte[] record, String target, int policy, boolean suspended) {
        public boolean hole() {
            return record == null;
        }
    }

    private static final byte[] REPLY_EP = NodePath.of("/$host/reply").tlv();

    private final NarrowNode node;
    private final byte[] request = new byte[8192];
    private final byte[] reply = new byte[64 * 1024];
    private final TlvWriter writer = new TlvWriter();
    private final FrameDecoder decoder = new FrameDecoder();
    private final TlvIndex idx = new TlvIndex(4096, 16);
    private final FwdView fwd = new FwdView();
    private final SubscriberView view = new SubscriberView(1, 1);
    private final SubscriberRenderer renderer = new SubscriberRenderer(256, 8);
    /** Renderings seen just before this surface suspended a slot (key "path[N]"). */
    private final java.util.Map<String, byte[]> deliveringRenderings = new java.util.HashMap<>();

    public OwnerSurface(NarrowNode node) {
        this.node = node;
    }

    /** The vertex's slots in order (holes included), or an empty list when it has none / is absent. */
    public List<Slot> list(NodePath path) {
        int payload = call(FwdView.OP_READ, path, -1, null);
        List<Slot> out = new ArrayList<>();
        if (payload < 0 || idx.type(payload) != TlvType.POINT) {
            return out;
        }
        int i = 0;
        for (int c = idx.firstChild(payload); c != TlvIndex.NONE; c = idx.nextSibling(c), i++) {
            out.add(slotOf(i, c));
        }
        return out;
    }

    /**
     * Sets or clears bit 9 of slot N through the [N] toggle arm: the record sent is the slot's
     * rendering under the wanted state (RFC-0035 §4.4 arm 2), so the node flips one bit and does not
     * re-admit. Returns a WireError code.
     *
     * <p>A resume must send the delivering-state rendering. For a record that carries its own
     * delivery_policy word that is the same bytes with bit 9 clear; for a word-less record suspended
     * by a toggle (rendering rule 3) it is the record without the pair the rendering added. The two
     * can render alike while suspended, so the record seen before a suspend made here is remembered
     * and used for the resume; a slot suspended elsewhere is resumed by clearing bit 9 in its word.
     */
    public int setSuspended(NodePath path, int slot, boolean suspended) {
        int payload = call(FwdView.OP_READ, path, slot, null);
        if (payload < 0) {
            return -payload;
        }
        if (idx.type(payload) != TlvType.SUBSCRIBER) {
            return WireError.PATH_NOT_FOUND; // a hole
        }
        byte[] current = Arrays.copyOfRange(reply, idx.start(payload), idx.start(payload) + idx.totalLength(payload));
        String key = path + "[" + slot + "]";
        byte[] record;
        if (suspended) {
            record = withSuspended(current, true);
            if (record != null && !Arrays.equals(record, current)) {
                deliveringRenderings.put(key, current);
            }
        } else {
            byte[] before = deliveringRenderings.get(key);
            byte[] expected = before == null ? null : withSuspended(before, true);
            record = expected != null && Arrays.equals(expected, current) ? before : withSuspended(current, false);
        }
        if (record == null) {
            return WireError.SCHEMA_TYPE_MISMATCH;
        }
        int r = call(FwdView.OP_WRITE, path, slot, record);
        if (r >= 0 && !suspended) {
            deliveringRenderings.remove(key);
        }
        return r < 0 ? -r : WireError.OK;
    }

    /** Clears slot N (empty STATUS). Returns a WireError code. */
    public int clear(NodePath path, int slot) {
        int r = call(FwdView.OP_WRITE, path, slot, Names.EMPTY_STATUS);
        return r < 0 ? -r : WireError.OK;
    }

    private Slot slotOf(int i, int e) {
        if (idx.type(e) != TlvType.SUBSCRIBER || view.wrap(idx, e) != WireError.OK) {
            return new Slot(i, null, "", 0, false);
        }
        byte[] rec = Arrays.copyOfRange(reply, idx.start(e), idx.start(e) + idx.totalLength(e));
        int t = view.target();
        String target = t == TlvIndex.NONE || idx.type(t) != TlvType.PATH ? ""
                : NodePath.render(reply, idx.bodyOffset(t), idx.bodyLength(t));
        int policy = view.policy();
        return new Slot(i, rec, target.isEmpty() ? "(link route)" : target, policy, DeliveryPolicy.suspended(policy));
    }

    /**
     * The rendering with bit 9 set to {@code suspended}: flips the bit in place when the record
     * carries a delivery_policy word; otherwise (a suspend of a word-less record) appends
     * {@code NAME delivery_policy VALUE 0x0200} to its first SETTINGS, or adds SETTINGS{pair}
     * (RFC-0035 rendering rule 3). Null when the record cannot be read.
     */
    byte[] withSuspended(byte[] rendering, boolean suspended) {
        byte[] out = new byte[rendering.length + SubscriberRenderer.MAX_GROWTH];
        int n = renderer.render(rendering, 0, rendering.length, suspended, out, 0, out.length);
        return n < 0 ? null : Arrays.copyOf(out, n);
    }

    /**
     * Sends FWD{op, dst, FIELD subscribers[N] (or [] when slot < 0), src, [payload]} as the owner.
     * Returns the reply payload's entry (RESULT), or a negated error code.
     */
    private int call(int op, NodePath path, int slot, byte[] payload) {
        TlvWriter w = writer.wrap(request, 0, request.length);
        w.begin(TlvType.FWD).value(op, 1).raw(path.tlv());
        w.begin(TlvType.FIELD).leaf(TlvType.NAME, Names.SUBSCRIBERS);
        if (slot >= 0) {
            w.value(slot, 4);
        }
        w.value(1, 1).end();
        w.raw(REPLY_EP);
        if (payload != null) {
            w.raw(payload);
        }
        w.end();
        if (w.error() != WireError.OK) {
            return -w.error();
        }
        int n = node.handleOwnerRequest(request, 0, w.length(), reply, 0, reply.length);
        if (n <= 0) {
            return n < 0 ? n : -WireError.FLOW_TIMEOUT; // no reply at all
        }
        if (decoder.decode(reply, 0, n, idx) != WireError.OK || fwd.wrap(idx, 0) != WireError.OK
                || fwd.opcode() != FwdView.OP_REPLY || fwd.kindEntry() == TlvIndex.NONE) {
            return -WireError.FRAME_INVALID;
        }
        if (fwd.kind() == FwdView.KIND_ERROR) {
            return -StatusView.errorCode(idx, fwd.payload(), WireError.FRAME_INVALID);
        }
        return fwd.payload() == TlvIndex.NONE ? 0 : fwd.payload();
    }
}
