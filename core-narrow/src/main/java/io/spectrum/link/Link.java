package io.spectrum.link;

/**
 * A transport that moves whole libtracer frames between this node and its peers. Implementations
 * allocate nothing per frame on the NARROW side: {@link #send} copies out of the caller's buffer
 * before returning (or, for a link that lends its own buffers, the caller writes the frame into one,
 * {@link #claim}, and nothing is copied), and {@link #poll} hands each received frame to the handler
 * in a buffer the link owns and reuses.
 *
 * <p>A peer is a small int handle that is stable for as long as the link knows the peer (for UDP
 * one per sender address; for a serial line always 0). Identity for the RFC-0035 holder gate is
 * the pair (link id, peer).
 */
public interface Link extends AutoCloseable {
    /** A node-unique id for this link, fixed at creation. */
    int id();

    /** A short human name: "udp 0.0.0.0:7000", "serial /dev/ttyUSB0@115200". */
    String name();

    /**
     * Sends one frame to {@code peer}.
     *
     * @return {@link io.spectrum.wire.WireError#OK}, TRANSPORT_DOWN when the peer or port is gone,
     *     FLOW_BACKPRESSURE when the link cannot take the frame now, FRAME_INVALID when it exceeds
     *     the link's frame limit
     */
    int send(int peer, byte[] buf, int off, int len);

    /**
     * Sends one frame to {@code peer} on {@code lane} (a link with lanes schedules CONTROL, then
     * RPC, then TOPIC; {@link Lane}). A link without lanes sends it as {@link #send} does.
     *
     * @return as {@link #send}; a link with lanes answers FLOW_BACKPRESSURE when that lane is full
     */
    default int send(int peer, byte[] buf, int off, int len, Lane lane) {
        return send(peer, buf, off, len);
    }

    /**
     * Lends one of the link's own outbound buffers, so that the caller writes the next frame for
     * {@code peer} straight into it instead of writing it elsewhere for {@link #send} to copy (a link
     * that hands frames to another thread in pooled buffers, {@code QueuedLink}). The frame starts at
     * offset 0 and takes at most {@code min(buffer.length, maxFrame())} bytes; then the caller ends the
     * claim with exactly one {@link #commitClaim} (send it) or {@link #abortClaim} (give it back),
     * on the thread that sends, before it sends anything else on this link. One claim at a time.
     *
     * <p>A claim only saves a copy: it never refuses. Whenever {@link #send} to {@code peer} would
     * refuse now (the link closed, the peer unknown or gone, no buffer free), and for a link that
     * lends nothing (the default), it answers null without counting anything, and the caller writes
     * the frame elsewhere and calls {@link #send}, which refuses, counts and answers as always.
     *
     * @return the buffer to write the frame into, or null: use {@link #send}
     */
    default byte[] claim(int peer) {
        return null;
    }

    /**
     * Sends the first {@code len} bytes of the buffer the open {@link #claim} lent, to that claim's
     * peer, and ends the claim; the buffer is the link's again.
     *
     * @return as {@link #send}: OK when queued; FRAME_INVALID (the buffer given back, counted as
     *     {@link #send} counts an oversize frame) when {@code len} is past the claim's room;
     *     TRANSPORT_DOWN when no claim is open (the default, for a link that never lends one)
     */
    default int commitClaim(int len) {
        return io.spectrum.wire.WireError.TRANSPORT_DOWN;
    }

    /**
     * Gives the buffer of the open {@link #claim} back unsent (the caller's frame did not fit it, or
     * it wrote none): nothing is queued, nothing counted, and the link's buffer pool is as it was
     * before the claim. Nothing happens when no claim is open.
     */
    default void abortClaim() {
    }

    /**
     * The name {@code peer} gave when it connected (the local stream link's hello), or null when
     * the link learns no names (UDP, serial).
     */
    default String peerName(int peer) {
        return null;
    }

    /**
     * Sends what the link queued since the last flush. A link that batches its sends (UDP's {@code
     * sendmmsg}) queues them only once its driver has called this, and the driver then calls it once
     * per step, after the step's sends (the node loop, {@code NodeAgent}); a link that sends each
     * frame at once ignores it (the default).
     */
    default void flush() {
    }

    /**
     * Delivers up to {@code maxFrames} received frames to {@code handler} without blocking.
     *
     * @return frames delivered
     */
    int poll(FrameHandler handler, int maxFrames);

    /** Largest frame this link carries. */
    int maxFrame();

    /** Registers the one listener told of peers coming and going (for staleness and edge eviction). */
    void setPeerListener(PeerListener listener);

    /**
     * Registers the hook that probes a peer silent for the link's ping interval (the node loop wires
     * its {@code $node/caps} READ here). A link without liveness tracking ignores it.
     */
    default void setLivenessProbe(LivenessProbe probe) {
    }

    /**
     * The generation of {@code peer}'s current holder: a link that gives a handle to a new peer
     * after the old one went ({@link PeerHandles}) gives it a higher generation, so state kept per
     * handle can tell an old holder from the new one. 0 for a link that does not count them.
     */
    default long peerGeneration(int peer) {
        return 0;
    }

    /**
     * Closes this side of {@code peer} (a server dropping one client: its table entry and handle
     * are freed). The listener may still be told the peer is down; the caller knows already. A
     * link without per-peer connections ignores it.
     */
    default void disconnect(int peer) {
    }

    /**
     * True when the link knows {@code peer}'s channel is gone for good: nothing sent to it can arrive
     * (its connection closed, its handle freed), whether or not the listener was told. False while it
     * may be up, and for a link that cannot know (the default). A node reaps the slots of a holder
     * whose channel is gone (docs/node.md, "A subscriber's channel gone").
     */
    default boolean isPeerGone(int peer) {
        return false;
    }

    /** True while the link considers {@code peer} alive (heard from within its timeout). */
    default boolean isPeerUp(int peer) {
        return false;
    }

    /**
     * Tells the link how to wake the node loop when input arrives ({@link Readiness}).
     *
     * @return true when the link will signal every arrival (through the loop's selector or
     *     {@link Readiness#wake}); false when the loop must keep polling it on a short period
     */
    default boolean setReadiness(Readiness readiness) {
        return false;
    }

    /** Counters an operator reads: frames in/out, frames dropped and why. */
    LinkStats stats();

    /**
     * The link's peer table in the BoundedResource vocabulary (capacity, peers known, peak, senders
     * refused), or null for a link without one (a serial line has its one peer).
     */
    default io.spectrum.stats.BoundedResource peers() {
        return null;
    }

    /**
     * Refreshes the counters the link has to ask its OS for ({@link LinkStats#droppedByOs}); the
     * node loop calls it on its stats period, on the link's thread, never per frame. May allocate.
     */
    default void refreshCounters() {
    }

    /**
     * Releases the transport; further sends answer TRANSPORT_DOWN. Throws nothing, so a link opened
     * in a {@code try}-with-resources needs no {@code catch}.
     */
    @Override
    void close();
}
