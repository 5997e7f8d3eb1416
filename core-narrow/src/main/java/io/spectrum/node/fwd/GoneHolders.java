package io.spectrum.node.fwd;

import io.spectrum.wire.WireError;

/**
 * Subscribers whose channel is gone without their link saying so (docs/node.md, "A subscriber's
 * channel gone"), for both cores. A routed delivery whose send answers TRANSPORT_DOWN notes its
 * holder here ({@link #sendFailed}); after the fan-out the node calls {@link #reap}, and its tick
 * calls {@link #sweep} on its period: a noted or swept holder (link, peer) that still holds slots
 * and whose link confirms the channel is gone ({@link io.spectrum.link.Link#isPeerGone}) has every
 * slot it holds reaped through {@link FwdStore#holderGone}, so its vertices' last publishers get
 * their idle notice once, when the count reaches 0. A holder that has no slot left is not reaped
 * again. A fixed table (a noted holder past it waits for the sweep). Allocation-free.
 */
final class GoneHolders {
    private static final int CAPACITY = 16;
    private final LinkTable links;
    private final PeerShares shares;
    private final FwdStore store;
    private final int[] link = new int[CAPACITY];
    private final int[] peer = new int[CAPACITY];
    private int noted;
    private long reaped;
    /** Requests and local writes in progress: noted holders are reaped when the outermost ends. */
    private int depth;

    GoneHolders(LinkTable links, PeerShares shares, FwdStore store) {
        this.links = links;
        this.shares = shares;
        this.store = store;
    }

    /** A routed send to (li, p) answered {@code code}: TRANSPORT_DOWN notes the holder for {@link #reap}. */
    void sendFailed(int li, int p, int code) {
        if (code != WireError.TRANSPORT_DOWN || li < 0) {
            return;
        }
        for (int i = 0; i < noted; i++) {
            if (link[i] == li && peer[i] == p) {
                return;
            }
        }
        if (noted < CAPACITY) {
            link[noted] = li;
            peer[noted] = p;
            noted++;
        }
    }

    /** A request or a local write begins (it may fan out). */
    void enter() {
        depth++;
    }

    /** It ends: the outermost one reaps what its fan-outs noted. */
    void exit() {
        if (--depth <= 0) {
            depth = 0;
            reap();
        }
    }

    /** Reaps the noted holders whose link confirms the channel gone (after a fan-out, never inside one). */
    void reap() {
        if (depth > 0) {
            return; // inside a fan-out: the outermost exit reaps
        }
        while (noted > 0) { // one at a time: reaping may notify a listener that publishes again
            noted--;
            reapIfGone(link[noted], peer[noted]);
        }
    }

    /** The periodic sweep: every remote holder of slots whose link says its channel is gone. */
    void sweep() {
        if (depth > 0) {
            return;
        }
        for (int e = shares.count() - 1; e >= 0; e--) {
            if (e < shares.count()) { // (reaping swap-removes entries: the moved one was seen already)
                reapIfGone(shares.linkAt(e), shares.peerAt(e));
            }
        }
        reap();
    }

    private void reapIfGone(int li, int p) {
        if (shares.slotsOf(li, p) > 0 && links.gone(li, p)) {
            reaped++;
            store.holderGone(li, p);
        }
    }

    /** Holders reaped because their channel was gone. */
    long reaped() {
        return reaped;
    }
}
