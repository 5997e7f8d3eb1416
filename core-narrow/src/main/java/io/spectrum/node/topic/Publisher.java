package io.spectrum.node.topic;


/**
 * Who a write comes from, for the topic bookkeeping: the publisher's link index (
 * {@code FwdServer#OWNER} for the local host) and peer, and, when it asked for active / idle
 * notices, the return route they go to (a PATH TLV in {@code route()}; length 0 = no notices), and,
 * for a delivery of one of the node's remote subscriptions, the upstream's stamp on it. A
 * flyweight its owner re-points per write, so a publish allocates nothing; valid during the write.
 */
public final class Publisher {
    private int link;
    private int peer;
    private byte[] route;
    private int routeOff;
    private int routeLen;
    private io.spectrum.wire.StampView upstream;

    /** Re-points the descriptor; {@code routeLength} 0 means no notices were asked for. */
    public Publisher set(int linkIndex, int peerId, byte[] routeBuf, int routeOffset, int routeLength) {
        link = linkIndex;
        peer = peerId;
        route = routeBuf;
        routeOff = routeOffset;
        routeLen = routeLength;
        upstream = null;
        return this;
    }

    /** The upstream's stamp on a delivery of this node's remote subscription, or null (a plain write). */
    public Publisher upstream(io.spectrum.wire.StampView stamp) {
        upstream = stamp;
        return this;
    }

    /** The upstream's stamp set by {@link #upstream(io.spectrum.wire.StampView)}, or null. */
    public io.spectrum.wire.StampView upstream() {
        return upstream;
    }

    int link() {
        return link;
    }

    int peer() {
        return peer;
    }

    /** True when the publisher asked for active / idle notices and gave a route for them. */
    boolean wantsNotices() {
        return routeLen > 0;
    }

    byte[] route() {
        return route;
    }

    int routeOffset() {
        return routeOff;
    }

    int routeLength() {
        return routeLen;
    }
}
