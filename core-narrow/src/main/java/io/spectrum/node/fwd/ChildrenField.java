package io.spectrum.node.fwd;

import io.spectrum.wire.FwdView;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

/**
 * {@code :children} over FWD: a READ of {@code :children[]} or {@code :children}
 * answers {@code POINT{ POINT{NAME seg} … }}, one inner POINT per direct child, in unsigned byte
 * order of the segment names (so the order depends only on which children exist, not on when they
 * were created or re-created). Built straight into the reply frame; a listing that does not fit the
 * frame buffer answers {@code flow::backpressure}. Allocation-free: the order and visibility come from
 * {@link ChildOrder} (O(k²) compares for k children, no scratch array).
 *
 * <p>Visibility: {@code $}-named children (node-internal, {@link FwdStore#isReserved}) are
 * listed to the owner only; a remote caller also sees only the children its {@link
 * io.spectrum.node.api.AccessPolicy} lets it read (the composed read's pruning rule, docs/node.md).
 * Retired vertices are gone from the vertex table, so they vanish from the listing.
 */
final class ChildrenField {
    private final FwdRequest req;
    private final FieldSelector sel;
    private final FwdStore vt;
    private final ChildOrder order;

    ChildrenField(FwdParts p) {
        this.req = p.req;
        this.sel = p.sel;
        this.vt = p.store;
        this.order = p.order;
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
        final boolean ownerView = req.fromOwner();
        TlvWriter t = req.beginReply(FwdView.KIND_RESULT);
        t.begin(TlvType.POINT);
        for (int c = order.next(v, FwdStore.NONE, ownerView); c != FwdStore.NONE; c = order.next(v, c, ownerView)) {
            final int at = order.lastSegment(c);
            final byte[] k = vt.keys(c);
            t.begin(TlvType.POINT).leaf(TlvType.NAME, k, at + 1, k[at] & 0xFF).end();
        }
        t.end().end();
        if (t.error() == WireError.OK) {
            req.send(t.length());
        } else {
            req.replyError(WireError.FLOW_BACKPRESSURE); // the listing does not fit the frame buffer
        }
    }
}
