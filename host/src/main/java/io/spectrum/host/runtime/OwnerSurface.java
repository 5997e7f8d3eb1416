package io.spectrum.host.runtime;

import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodePath;
import io.spectrum.wire.Bytes;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

import java.nio.charset.StandardCharsets;
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
    private static final byte[] SUBSCRIBERS = "subscribers".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DELIVERY_POLICY = "delivery_policy".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EMPTY_STATUS = {0x09, 0x00, 0x00, 0x00};
    private static final int SUSPENDED_BIT = 0x0200;

    private final NarrowNode node;
    private final byte[] request = new byte[8192];
    private final byte[] reply = new byte[64 * 1024];
    private final TlvWriter writer = new TlvWriter();
    private final FrameDecoder decoder = new FrameDecoder();
    private final TlvIndex idx = new TlvIndex(4096, 16);
    /** Renderings seen just before this surface suspended a slot (key "path[N]"). */
    private final java.util.Map<String, byte[]> deliveringRenderings = new java.util.HashMap<>();

    public OwnerSurface(NarrowNode node) {
        this.node = node;
    }

    /** The vertex's slots in order (holes included), or an empty list when it has none / is absent. */
    public List<Slot> list(NodePath path) {
        int payload = call(0, path, -1, null);
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
        int payload = call(0, path, slot, null);
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
        int r = call(1, path, slot, record);
        if (r >= 0 && !suspended) {
            deliveringRenderings.remove(key);
        }
        return r < 0 ? -r : WireError.OK;
    }

    /** Clears slot N (empty STATUS). Returns a WireError code. */
    public int clear(NodePath path, int slot) {
        int r = call(1, path, slot, EMPTY_STATUS);
        return r < 0 ? -r : WireError.OK;
    }

    private Slot slotOf(int i, int e) {
        if (idx.type(e) != TlvType.SUBSCRIBER) {
            return new Slot(i, null, "", 0, false);
        }
        byte[] rec = Arrays.copyOfRange(reply, idx.start(e), idx.start(e) + idx.totalLength(e));
        String target = "";
        int policy = 0;
        for (int c = idx.firstChild(e); c != TlvIndex.NONE; c = idx.nextSibling(c)) {
            if (idx.type(c) == TlvType.PATH && target.isEmpty()) {
                target = NodePath.render(reply, idx.bodyOffset(c), idx.bodyLength(c));
            } else if (idx.type(c) == TlvType.SETTINGS) {
                int p = policyIn(c);
                if (p >= 0) {
                    policy = p;
                }
            }
        }
        return new Slot(i, rec, target.isEmpty() ? "(link route)" : target, policy, (policy & SUSPENDED_BIT) != 0);
    }

    /** The last well-formed delivery_policy value in a SETTINGS, or -1. */
    private int policyIn(int settings) {
        int found = -1;
        int c = idx.firstChild(settings);
        while (c != TlvIndex.NONE) {
            int v = idx.nextSibling(c);
            if (idx.type(c) != TlvType.NAME || v == TlvIndex.NONE) {
                break;
            }
            if (idx.payloadEquals(c, DELIVERY_POLICY) && idx.type(v) == TlvType.VALUE && idx.bodyLength(v) == 2) {
                found = (int) idx.valueAsLong(v);
            }
            c = idx.nextSibling(v);
        }
        return found;
    }

    /**
     * The rendering with bit 9 set to {@code suspended}: flips the bit in place when the record
     * carries a delivery_policy word; otherwise (a suspend of a word-less record) appends
     * {@code NAME delivery_policy VALUE 0x0200} to its first SETTINGS, or adds SETTINGS{pair}
     * (RFC-0035 rendering rule 3). Null when the record cannot be read.
     */
    byte[] withSuspended(byte[] rendering, boolean suspended) {
        TlvIndex r = new TlvIndex(256, 8);
        if (decoder.decode(rendering, 0, rendering.length, r) != WireError.OK || r.type(0) != TlvType.SUBSCRIBER) {
            return null;
        }
        int firstSettings = TlvIndex.NONE;
        int wordAt = -1;
        for (int c = r.firstChild(0); c != TlvIndex.NONE; c = r.nextSibling(c)) {
            if (r.type(c) != TlvType.SETTINGS) {
                continue;
            }
            if (firstSettings == TlvIndex.NONE) {
                firstSettings = c;
            }
            int k = r.firstChild(c);
            while (k != TlvIndex.NONE) {
                int v = r.nextSibling(k);
                if (r.type(k) != TlvType.NAME || v == TlvIndex.NONE) {
                    break;
                }
                if (r.payloadEquals(k, DELIVERY_POLICY) && r.type(v) == TlvType.VALUE && r.bodyLength(v) == 2) {
                    wordAt = r.bodyOffset(v);
                }
                k = r.nextSibling(v);
            }
        }
        byte[] out = rendering.clone();
        if (wordAt >= 0) {
            int word = Bytes.u16(out, wordAt);
            word = suspended ? word | SUSPENDED_BIT : word & ~SUSPENDED_BIT;
            out[wordAt] = (byte) word;
            out[wordAt + 1] = (byte) (word >>> 8);
            return out;
        }
        if (!suspended) {
            return out; // no word means delivering already
        }
        // rule 3: re-emit the record with the pair added
        byte[] buf = new byte[rendering.length + 64];
        TlvWriter w = writer.wrap(buf, 0, buf.length);
        w.begin(TlvType.SUBSCRIBER, r.opt(0));
        boolean added = false;
        for (int c = r.firstChild(0); c != TlvIndex.NONE; c = r.nextSibling(c)) {
            if (c == firstSettings) {
                w.begin(TlvType.SETTINGS, r.opt(c));
                w.raw(rendering, r.bodyOffset(c), r.bodyLength(c));
                w.leaf(TlvType.NAME, DELIVERY_POLICY).value(SUSPENDED_BIT, 2);
                w.end(r.hasTimestamp(c) ? r.timestamp(c) : 0L);
                added = true;
            } else {
                w.raw(rendering, r.start(c), r.totalLength(c));
            }
        }
        if (!added) {
            w.begin(TlvType.SETTINGS).leaf(TlvType.NAME, DELIVERY_POLICY).value(SUSPENDED_BIT, 2).end();
        }
        w.end(r.hasTimestamp(0) ? r.timestamp(0) : 0L);
        return w.error() == WireError.OK ? Arrays.copyOf(buf, w.length()) : null;
    }

    /**
     * Sends FWD{op, dst, FIELD subscribers[N] (or [] when slot < 0), src, [payload]} as the owner.
     * Returns the reply payload's entry (RESULT), or a negated error code.
     */
    private int call(int op, NodePath path, int slot, byte[] payload) {
        TlvWriter w = writer.wrap(request, 0, request.length);
        w.begin(TlvType.FWD).value(op, 1).raw(path.tlv());
        w.begin(TlvType.FIELD).leaf(TlvType.NAME, SUBSCRIBERS);
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
        if (decoder.decode(reply, 0, n, idx) != WireError.OK || idx.type(0) != TlvType.FWD) {
            return -WireError.FRAME_INVALID;
        }
        int c = idx.firstChild(0);              // op
        int dst = idx.nextSibling(c);
        int src = dst == TlvIndex.NONE ? TlvIndex.NONE : idx.nextSibling(dst);
        int kind = src == TlvIndex.NONE ? TlvIndex.NONE : idx.nextSibling(src);
        if (kind == TlvIndex.NONE) {
            return -WireError.FRAME_INVALID;
        }
        int body = idx.nextSibling(kind);
        if (idx.valueAsLong(kind) == 1) {
            return -errorCode(body);
        }
        return body == TlvIndex.NONE ? 0 : body;
    }

    /** STATUS{ERROR{VALUE u16 code}}: the first ERROR child's code. */
    private int errorCode(int status) {
        if (status == TlvIndex.NONE) {
            return WireError.FRAME_INVALID;
        }
        for (int c = idx.firstChild(status); c != TlvIndex.NONE; c = idx.nextSibling(c)) {
            if (idx.type(c) == TlvType.ERROR) {
                int v = idx.firstChild(c);
                if (v != TlvIndex.NONE && idx.type(v) == TlvType.VALUE) {
                    return (int) idx.valueAsLong(v);
                }
            }
        }
        return WireError.FRAME_INVALID;
    }
}
