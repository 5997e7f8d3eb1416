package io.spectrum.link.local;

import io.spectrum.link.Lane;

/**
 * Limits and timers of one {@link LocalLink}; a mutable builder read once when the link is created.
 *
 * <p>Defaults follow the Flybus bounds the link implements (docs/links.md):
 * 64 connections, a 5 s hello timeout, a control lane of 128 frames / 1 MiB per connection, a topic
 * frame after 16 higher-priority frames.
 */
public final class LocalLinkConfig {
    /** Default frame limit: a 64 KiB value plus room for its libtracer envelope. */
    public static final int DEFAULT_MAX_FRAME = 65_536 + 1_024;
    /** Hard ceiling of {@link #maxFrame} (libtracer's suggested MAX_TLV_BYTES, 16 MiB). */
    public static final int MAX_FRAME_CEILING = 16 * 1024 * 1024;

    int maxFrame = DEFAULT_MAX_FRAME;
    int connectionCapacity = 64;
    int handleSpace = 1 << 16;
    long helloTimeoutNanos = 5_000_000_000L;
    long closingGraceNanos = 1_000_000_000L;
    int controlFrames = 128;
    int controlBytes = 1 << 20;
    int rpcFrames = 64;
    int rpcBytes = 1 << 20;
    int topicFrames = 256;
    int topicBytes = 1 << 20;
    int topicEvery = 16;
    boolean allowNonLoopback;
    boolean helloRequired = true;

    /** Largest frame carried either way (4 .. 16 MiB); a length prefix above it closes that connection. */
    public LocalLinkConfig maxFrame(int bytes) {
        maxFrame = check("maxFrame", bytes, 4, MAX_FRAME_CEILING);
        return this;
    }

    /** Connections open at once (server); one more is accepted and closed at once, and counted. */
    public LocalLinkConfig connectionCapacity(int connections) {
        connectionCapacity = check("connectionCapacity", connections, 1, 1 << 20);
        return this;
    }

    /**
     * Peer handles the link hands out (0 .. handleSpace-1): a freed handle is given again only after
     * every other free one, and with a higher generation ({@code PeerHandles}), so an RFC-0035
     * holder identity is never inherited and the handles never run out. A host that wraps the link
     * in a {@code QueuedLink} sizes its {@code maxPeers} to this.
     */
    public LocalLinkConfig handleSpace(int handles) {
        handleSpace = check("handleSpace", handles, 1, 1 << 22);
        return this;
    }

    /** A connection whose first frame is not a hello within this time is closed (default 5 s). */
    public LocalLinkConfig helloTimeoutMillis(long millis) {
        helloTimeoutNanos = checkPositive("helloTimeout", millis) * 1_000_000L;
        return this;
    }

    /** How long a closing connection may take to flush its closing notice before it is cut (default 1 s). */
    public LocalLinkConfig closingGraceMillis(long millis) {
        closingGraceNanos = checkPositive("closingGrace", millis) * 1_000_000L;
        return this;
    }

    /** The CONTROL lane's bound per connection (default 128 frames / 1 MiB); overflow closes the connection. */
    public LocalLinkConfig controlLane(int frames, int bytes) {
        controlFrames = check("controlFrames", frames, 1, 1 << 20);
        controlBytes = check("controlBytes", bytes, 4, Integer.MAX_VALUE);
        return this;
    }

    /** The RPC lane's bound per connection (default 64 frames / 1 MiB); full answers FLOW_BACKPRESSURE. */
    public LocalLinkConfig rpcLane(int frames, int bytes) {
        rpcFrames = check("rpcFrames", frames, 1, 1 << 20);
        rpcBytes = check("rpcBytes", bytes, 4, Integer.MAX_VALUE);
        return this;
    }

    /** The TOPIC lane's bound per connection (default 256 frames / 1 MiB); full answers FLOW_BACKPRESSURE. */
    public LocalLinkConfig topicLane(int frames, int bytes) {
        topicFrames = check("topicFrames", frames, 1, 1 << 20);
        topicBytes = check("topicBytes", bytes, 4, Integer.MAX_VALUE);
        return this;
    }

    /** A waiting TOPIC frame is sent after this many consecutive CONTROL/RPC frames (default 16). */
    public LocalLinkConfig topicEvery(int frames) {
        topicEvery = check("topicEvery", frames, 1, 1 << 20);
        return this;
    }

    /**
     * Allows a TCP listener on a non-loopback address (another host may then connect). Off by
     * default: {@link LocalLink#listen} refuses such an address.
     */
    public LocalLinkConfig allowNonLoopback(boolean on) {
        allowNonLoopback = on;
        return this;
    }

    /**
     * Whether a connection must open with Spectrum's hello ({@link LocalHello}); true by default (the
     * host bus). Off, the link speaks libtracer's TCP transport as it is (docs/links.md, "TCP link"):
     * a connection is up when it is connected, every frame including the first is delivered, and a
     * first frame that is a hello is only read for the peer's name; the link sends a connection the
     * {@link ClosingNotice} only when that connection announced itself with a hello, and a client
     * sends a hello only when it is given a name.
     */
    public LocalLinkConfig helloRequired(boolean on) {
        helloRequired = on;
        return this;
    }

    /** Whether a connection must open with Spectrum's hello (see {@link #helloRequired(boolean)}). */
    public boolean helloRequired() {
        return helloRequired;
    }

    /** Largest frame carried either way, in bytes (default {@link #DEFAULT_MAX_FRAME}). */
    public int maxFrame() {
        return maxFrame;
    }

    /** Connections a server holds open at once (default 64). */
    public int connectionCapacity() {
        return connectionCapacity;
    }

    /** Peer handles the link hands out, {@code 0..handleSpace-1} (default 65536). */
    public int handleSpace() {
        return handleSpace;
    }

    /** Nanoseconds a new connection has to send its hello before it is closed (default 5 s). */
    public long helloTimeoutNanos() {
        return helloTimeoutNanos;
    }

    int laneFrames(Lane lane) {
        switch (lane) {
            case CONTROL: return controlFrames;
            case RPC: return rpcFrames;
            default: return topicFrames;
        }
    }

    int laneBytes(Lane lane) {
        switch (lane) {
            case CONTROL: return controlBytes;
            case RPC: return rpcBytes;
            default: return topicBytes;
        }
    }

    private static int check(String what, int v, int min, int max) {
        if (v < min || v > max) {
            throw new IllegalArgumentException(what + " must be " + min + ".." + max + ": " + v);
        }
        return v;
    }

    private static long checkPositive(String what, long v) {
        if (v <= 0) {
            throw new IllegalArgumentException(what + " must be > 0: " + v);
        }
        return v;
    }
}
