package io.spectrum.link.local;

/**
 * The outbound lane a frame waits in on one {@link LocalLink} connection. The link's scheduler sends
 * CONTROL first, then RPC, then TOPIC, except that a waiting TOPIC frame goes after
 * {@link LocalLinkConfig#topicEvery} consecutive higher-priority frames, so topic data is never
 * starved. The caller names the lane ({@link LocalLink#send(int, byte[], int, int, Lane)}); the link
 * never guesses it from the frame's contents. Plain {@link io.spectrum.link.Link#send} uses CONTROL:
 * the node's replies and notices go through it.
 */
public enum Lane {
    /** Replies, notices, liveness answers. Bounded; overflow closes the connection (with a notice). */
    CONTROL,
    /** RPC calls and their traffic. Bounded; a full lane answers FLOW_BACKPRESSURE. */
    RPC,
    /** Topic data (deliveries). Bounded; a full lane answers FLOW_BACKPRESSURE. */
    TOPIC;

    static final Lane[] ALL = values();
}
