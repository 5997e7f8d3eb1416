package io.spectrum.node.fwd;


/**
 * The order and visibility of a vertex's direct children, shared by the {@code :children} listing
 * and the composed READ: unsigned byte order of the segment names (a proper prefix sorts first),
 * so the order depends only on which children exist, not on when they were created. The next child
 * is found by picking the smallest visible segment above the last one handed out: O(k) compares
 * per step, O(k²) per listing of k children, and no scratch memory.
 *
 * <p>Visibility: the owner sees every child; a remote caller (the request's caller) sees neither
 * {@code $}-named children (flag {@link FwdStore#isReserved}) nor children its
 * {@link io.spectrum.node.api.AccessPolicy} does not let it READ.
 */
final class ChildOrder {
    private final FwdStore vt;
    private final FwdRequest req;

    ChildOrder(FwdParts p) {
        this.vt = p.store;
        this.req = p.req;
    }

    /**
     * The visible child of {@code v} whose segment follows {@code last}'s in byte order (the first
     * one when {@code last} is NONE), or NONE.
     *
     * @param ownerView true: every child is visible; false: visibility is the request caller's
     */
    int next(int v, int last, boolean ownerView) {
        final int prefix = vt.keyLen(v);
        int best = FwdStore.NONE;
        for (int c = vt.firstChild(v); c != FwdStore.NONE; c = vt.nextSibling(c)) {
            if (!visible(c, ownerView)) {
                continue;
            }
            if ((last == FwdStore.NONE || compareSegments(c, last, prefix) > 0)
                    && (best == FwdStore.NONE || compareSegments(c, best, prefix) < 0)) {
                best = c;
            }
        }
        return best;
    }

    boolean visible(int c, boolean ownerView) {
        if (ownerView) {
            return true;
        }
        return !vt.isReserved(c) && req.canRead(c);
    }

    /** Offset in {@code keys(v)} of the vertex's last PATH record ({@code [len][bytes]}); v must not be the root. */
    int lastSegment(int v) {
        return vt.keyOffset(v) + vt.keyLen(vt.parent(v));
    }

    /** Unsigned byte order of two siblings' last segments (a proper prefix sorts first). */
    private int compareSegments(int a, int b, int prefix) {
        final byte[] ka = vt.keys(a);
        final byte[] kb = vt.keys(b);
        final int ao = vt.keyOffset(a) + prefix;
        final int bo = vt.keyOffset(b) + prefix;
        final int al = ka[ao] & 0xFF;
        final int bl = kb[bo] & 0xFF;
        final int n = Math.min(al, bl);
        for (int i = 1; i <= n; i++) {
            int d = (ka[ao + i] & 0xFF) - (kb[bo + i] & 0xFF);
            if (d != 0) {
                return d;
            }
        }
        return al - bl;
    }
}
