package io.spectrum.node;

/**
 * Who a write comes from, for the topic bookkeeping: the publisher's link index (
 * {@link NarrowNode#OWNER} for the local host) and peer, and, when it asked for active / idle
 * notices, the return route they go to (a PATH TLV in {@code route()}; length 0 = no notices). A
 * flyweight its owner re-points per write, so a publish allocates nothing; valid during the write.
 */
final class Publisher {
    private int link;
    private int peer;
    private byte[] route;
    private int routeOff;
    private int routeLen;

    /** Re-points the descriptor; {@code routeLength} 0 means no notices were asked for. */
    Publisher set(int linkIndex, int peerId, byte[] routeBuf, int routeOffset, int routeLength) {
        link = linkIndex;
        peer = peerId;
        route = routeBuf;
        routeOff = routeOffset;
        routeLen = routeLength;
        return this;
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
