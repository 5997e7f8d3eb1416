package io.spectrum.link.udp;

/** Limits and timers of one {@link UdpLink}; fixed once the link is created. */
public final class UdpLinkConfig {
    /** Largest UDP payload over IPv4 (65535 - 20 IP - 8 UDP): the hard frame limit. */
    public static final int MAX_DATAGRAM = 65507;

    int maxFrame = MAX_DATAGRAM;
    int peerCapacity = 16;
    long peerTimeoutNanos = 10_000_000_000L;
    long pingIntervalNanos = 3_000_000_000L;
    int socketBufferBytes = 0;

    /** Largest frame carried; may only tighten the datagram limit. */
    public UdpLinkConfig maxFrame(int bytes) {
        if (bytes < 4 || bytes > MAX_DATAGRAM) {
            throw new IllegalArgumentException("maxFrame must be 4.." + MAX_DATAGRAM + ": " + bytes);
        }
        maxFrame = bytes;
        return this;
    }

    /** Size of the peer table (a listener's distinct senders); a full table refuses new senders. */
    public UdpLinkConfig peerCapacity(int peers) {
        if (peers < 1) {
            throw new IllegalArgumentException("peerCapacity must be >= 1: " + peers);
        }
        peerCapacity = peers;
        return this;
    }

    /** A peer silent longer than this is reported down. */
    public UdpLinkConfig peerTimeoutMillis(long millis) {
        if (millis <= 0) {
            throw new IllegalArgumentException("peerTimeout must be > 0: " + millis);
        }
        peerTimeoutNanos = millis * 1_000_000L;
        return this;
    }

    /** A peer silent this long is probed through the link's {@link io.spectrum.link.LivenessProbe}. */
    public UdpLinkConfig pingIntervalMillis(long millis) {
        if (millis <= 0) {
            throw new IllegalArgumentException("pingInterval must be > 0: " + millis);
        }
        pingIntervalNanos = millis * 1_000_000L;
        return this;
    }

    /** SO_RCVBUF/SO_SNDBUF request; 0 keeps the OS default. */
    public UdpLinkConfig socketBufferBytes(int bytes) {
        socketBufferBytes = bytes;
        return this;
    }

    public int maxFrame() {
        return maxFrame;
    }

    public int peerCapacity() {
        return peerCapacity;
    }

    public long peerTimeoutNanos() {
        return peerTimeoutNanos;
    }

    public long pingIntervalNanos() {
        return pingIntervalNanos;
    }
}
