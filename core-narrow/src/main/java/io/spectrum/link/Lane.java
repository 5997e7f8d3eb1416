package io.spectrum.link;

/**
 * The outbound lane of a frame on a link that schedules lanes (the local stream link;
 * docs/links.md): CONTROL first, then RPC, then TOPIC, with a waiting TOPIC frame sent after a run of
 * higher-priority ones so topic data is never starved. The sender names the lane
 * ({@link Link#send(int, byte[], int, int, Lane)}); a link never guesses it from the frame's
 * contents, and a link without lanes sends every frame alike. Plain {@link Link#send} is CONTROL:
 * the node's replies and notices go through it.
 */
public enum Lane {
    /** Replies, notices, liveness answers. Bounded; overflow closes the connection (with a notice). */
    CONTROL,
    /** RPC calls and their traffic. Bounded; a full lane answers FLOW_BACKPRESSURE. */
    RPC,
    /** Topic data (deliveries). Bounded; a full lane answers FLOW_BACKPRESSURE. */
    TOPIC
}
