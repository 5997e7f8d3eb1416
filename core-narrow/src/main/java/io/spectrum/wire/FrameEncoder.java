package io.spectrum.wire;

/**
 * Re-encodes a decoded frame from its {@link TlvIndex}: raw opt bytes and length widths are kept,
 * leaf payloads are copied, container lengths are recomputed from the children, timestamps are
 * re-emitted from the decoded values and CRCs are recomputed. A valid frame therefore comes back
 * byte for byte. Iterative, allocation-free, no exceptions.
 */
public final class FrameEncoder {
    private final TlvWriter writer;
    private final int[] pending;

    public FrameEncoder(int maxDepth) {
        writer = new TlvWriter(maxDepth);
        pending = new int[maxDepth];
    }

    public FrameEncoder() {
        this(64);
    }

    /**
     * Encodes entry {@code e} of {@code idx} (0 = the whole frame) into {@code out}.
     *
     * @return bytes written (&gt; 0), or a negated {@link WireError} code
     */
    public int encode(TlvIndex idx, int e, byte[] out, int off, int capacity) {
        final TlvWriter w = writer.wrap(out, off, capacity);
        if (idx.count() == 0 || e < 0 || e >= idx.count()) {
            return -WireError.FRAME_INVALID;
        }
        final byte[] src = idx.buffer();
        int sp = 0;
        int cur = e;
        while (true) {
            if (idx.isContainer(cur)) {
                w.begin(idx.type(cur), idx.opt(cur));
                final int child = idx.firstChild(cur);
                if (child != TlvIndex.NONE) {
                    if (sp == pending.length) {
                        return -WireError.TLV_NESTING_TOO_DEEP;
                    }
                    pending[sp++] = cur;
                    cur = child;
                    continue;
                }
                w.end(idx.timestamp(cur));
            } else {
                w.leaf(idx.type(cur), idx.opt(cur), src, idx.bodyOffset(cur), idx.bodyLength(cur), idx.timestamp(cur));
            }
            // climb until a node with a next sibling, closing containers on the way
            while (true) {
                if (cur == e) {
                    return w.error() == WireError.OK ? w.length() : -w.error();
                }
                final int next = idx.nextSibling(cur);
                if (next != TlvIndex.NONE) {
                    cur = next;
                    break;
                }
                cur = pending[--sp];
                w.end(idx.timestamp(cur));
            }
        }
    }
}
