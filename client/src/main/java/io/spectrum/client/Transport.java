package io.spectrum.client;

/**
 * Where a {@link PeerClient} sends its requests and reads what comes back: a link to a remote
 * node ({@link LinkTransport}), or the owner's in-process door of a local node
 * ({@link OwnerTransport}). Single-threaded, like the client.
 */
public interface Transport extends AutoCloseable {
    /** Receives inbound frames; the buffer is valid only during the call. */
    interface Sink {
        /** One inbound frame, valid only during the call. */
        void frame(byte[] buf, int off, int len);
    }

    /** Sends one whole frame; returns a {@link io.spectrum.wire.WireError} code. */
    int send(byte[] frame, int off, int len);

    /** Hands up to {@code max} received frames to {@code sink} without blocking; returns how many. */
    int poll(Sink sink, int max);

    /**
     * Asks the transport to wake {@code r} when input arrives (its channels watched, or a wake from
     * the thread that delivers it), so a caller may sleep in {@code r} instead of polling. True when
     * every arrival wakes it; false (the default) when the caller must keep polling.
     */
    default boolean wakes(io.spectrum.link.Readiness r) {
        return false;
    }

    /** Releases the transport. */
    @Override
    default void close() {
    }
}
