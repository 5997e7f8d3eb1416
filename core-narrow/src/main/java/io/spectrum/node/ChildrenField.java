package io.spectrum.node;

import io.spectrum.node.graph.VertexTable;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

/**
 * {@code :children} over FWD (digest §5.4): a READ of {@code :children[]} or {@code :children}
 * answers {@code POINT{ POINT{NAME seg} … }}, one inner POINT per direct child, in unsigned byte
 * order of the segment names (so the order depends only on which children exist, not on when they
 * were created or re-created). Built straight into the reply frame; a listing that does not fit the
 * frame buffer answers {@code flow::backpressure}. Allocation-free: the order comes from repeatedly
 * picking the smallest segment above the last one written (O(k²) compares for k children, no
 * scratch array).
 *
 * <p>Visibility: {@code $}-named children (node-internal, flag {@link VertexTable#F_RESERVED}) are
 * listed to the owner only; a remote caller also sees only the children its {@link
 * io.spectrum.node.api.AccessPolicy} lets it read (the composed-read pruning rule of digest §6).
 * Retired vertices are gone from the vertex table, so they vanish from the listing.
 */
final class ChildrenField {
    private final FwdRequest req;
    private final FieldSelector sel;
    private final VertexTable vt;

    ChildrenField(FwdRequest req, FieldSelector sel, VertexTable vt) {
        this.req = req;
        this.sel = sel;
        this.vt = vt;
    }

    /** READ of {@code v:children}; dst, selector and the READ gate on {@code v} are already checked. */
    void read(int v) {
        if (sel.levels != 1 || sel.index >= 0) {
            req.replyError(WireError.SCHEMA_NOT_FOUND); // addressed whole: no [N], no sub-field
            return;
        }
        if (req.silent) {
            return;
        }
        final int prefix = vt.keyLen[v];
        TlvWriter t = req.beginReply(NarrowNode.KIND_RESULT);
        t.begin(TlvType.POINT);
        int last = VertexTable.NONE;
        while (true) {
            int best = VertexTable.NONE;
            for (int c = vt.firstChild[v]; c != VertexTable.NONE; c = vt.nextSibling[c]) {
                if (!visible(c)) {
                    continue;
                }
                if ((last == VertexTable.NONE || compareSegments(c, last, prefix) > 0)
                        && (best == VertexTable.NONE || compareSegments(c, best, prefix) < 0)) {
                    best = c;
                }
            }
            if (best == VertexTable.NONE) {
                break;
            }
            final int at = vt.keyOffset(best) + prefix; // the child's last PATH record: [len][bytes]
            t.begin(TlvType.POINT).leaf(TlvType.NAME, vt.keys, at + 1, vt.keys[at] & 0xFF).end();
            last = best;
        }
        t.end().end();
        if (t.error() == WireError.OK) {
            req.send(t.length());
        } else {
            req.replyError(WireError.FLOW_BACKPRESSURE); // the listing does not fit the frame buffer
        }
    }

    private boolean visible(int c) {
        if (req.fromOwner()) {
            return true;
        }
        return (vt.flags[c] & VertexTable.F_RESERVED) == 0 && req.canRead(c);
    }

    /** Unsigned byte order of two siblings' last segments (a proper prefix sorts first). */
    private int compareSegments(int a, int b, int prefix) {
        final byte[] k = vt.keys;
        final int ao = vt.keyOffset(a) + prefix;
        final int bo = vt.keyOffset(b) + prefix;
        final int al = k[ao] & 0xFF;
        final int bl = k[bo] & 0xFF;
        final int n = Math.min(al, bl);
        for (int i = 1; i <= n; i++) {
            int d = (k[ao + i] & 0xFF) - (k[bo + i] & 0xFF);
            if (d != 0) {
                return d;
            }
        }
        return al - bl;
    }
}
