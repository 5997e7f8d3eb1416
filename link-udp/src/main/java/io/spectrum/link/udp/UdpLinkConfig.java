package io.spectrum.link.udp;

/**
 * Limits and timers of one {@link UdpLink}; fixed once the link is created.
 *
 * <p>The frame size ({@link #maxFrame}) is the largest datagram the link sends or accepts; a node
 * the link is attached to refuses at write time any value that would not fit a frame of this size
 * with its envelope (the smallest attached link wins). The receive buffer ({@link
 * #receiveBufferBytes}) is what the kernel may queue between two polls; the OS may grant less
 * (Linux caps it at {@code net.core.rmem_max}), which {@link UdpLink#receiveBufferGranted()} reads back.
 */
public final class UdpLinkConfig {
    /** Largest UDP payload over IPv4 (65535 - 20 IP - 8 UDP): the hard frame limit. */
    public static final int MAX_DATAGRAM = 65507;
    /** Receive buffer requested by default: room for bursts of small frames between two polls. */
    public static final int DEFAULT_RECEIVE_BUFFER = 4 * 1024 * 1024;

    int maxFrame = MAX_DATAGRAM;
    int peerCapacity = 16;
    int peersPerHost;
    boolean limitLoopbackPeers = true;
    int receiveBufferBytes = DEFAULT_RECEIVE_BUFFER;
    long peerTimeoutNanos = 10_000_000_000L;
    long pingIntervalNanos = 3_000_000_000L;
    int socketBufferBytes = 0;
    int batch = DEFAULT_BATCH;
    int segmentRun = DEFAULT_SEGMENT_RUN;

    /**
     * The shortest run of queued datagrams to one peer sent as one segmented send by default: 16, or
     * the system property {@code spectrum.udp.segments} (0 turns segmented sends off for every link
     * of the process, e.g. to capture a host's loopback traffic datagram by datagram).
     */
    public static final int DEFAULT_SEGMENT_RUN = Math.max(0, Integer.getInteger("spectrum.udp.segments", 16));

    /**
     * Datagrams per {@code recvmmsg}/{@code sendmmsg} call by default: 16, or the system property
     * {@code spectrum.udp.batch} (0 turns batched I/O off for every link of the process, the way to
     * force the channel path).
     */
    public static final int DEFAULT_BATCH = Math.max(0, Integer.getInteger("spectrum.udp.batch", 16));

    /**
     * Datagrams received or sent per system call where batched I/O is available (Linux, 64-bit, JNA;
     * see {@link UdpLink}); 0 keeps one system call per datagram through the JDK channel. Each
     * direction holds {@code datagrams} slots of {@link #maxFrame} bytes in native memory (the send
     * side only once the link queues sends).
     */
    public UdpLinkConfig batch(int datagrams) {
        batch = checkBatch(datagrams);
        return this;
    }

    /**
     * A batch size as {@link #batch(int)} takes it: 0 to 1024 datagrams.
     *
     * @return {@code datagrams}
     * @throws IllegalArgumentException outside 0..1024
     */
    public static int checkBatch(int datagrams) {
        if (datagrams < 0 || datagrams > 1024) {
            throw new IllegalArgumentException("batch must be 0..1024: " + datagrams);
        }
        return datagrams;
    }

    /**
     * On the batched path, a flush sends each run of at least {@code datagrams} queued datagrams to
     * one peer, of one length (the last may be shorter), as one segmented send ({@code UDP_SEGMENT}):
     * the kernel walks its IP stack once for the run. The peer receives the same datagrams. A run that
     * long forms only when the node answers a backlog (a client with many requests in flight), so a
     * lone answer leaves as soon as before. 0 turns it off; where the kernel cannot segment, the
     * link finds out at its first such send and sends one datagram a message from then on. See
     * docs/links.md, "Segmented sends".
     *
     * @param datagrams 0 (off) or 2..64
     * @return this
     */
    public UdpLinkConfig segmentRun(int datagrams) {
        if (datagrams != 0 && (datagrams < 2 || datagrams > 64)) {
            throw new IllegalArgumentException("segmentRun must be 0 (off) or 2..64: " + datagrams);
        }
        segmentRun = datagrams;
        return this;
    }

    /** The shortest run sent segmented; 0: off. */
    public int segmentRun() {
        return segmentRun;
    }

    /** Datagrams per batched system call; 0: batched I/O off. */
    public int batch() {
        return batch;
    }

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

    /** SO_RCVBUF/SO_SNDBUF request; 0 keeps the OS default. Sets the receive buffer too. */
    public UdpLinkConfig socketBufferBytes(int bytes) {
        socketBufferBytes = bytes;
        receiveBufferBytes = bytes;
        return this;
    }

    /**
     * SO_RCVBUF request (default {@link #DEFAULT_RECEIVE_BUFFER}, 4 MiB); 0 keeps the OS default.
     * The OS may grant less: see {@link UdpLink#receiveBufferGranted()}.
     */
    public UdpLinkConfig receiveBufferBytes(int bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("receiveBuffer must be >= 0: " + bytes);
        }
        receiveBufferBytes = bytes;
        return this;
    }

    /**
     * Peer-table entries one source address (IP, any port) may hold: a host sending from many
     * ports cannot fill the table; its next new port takes the place of one of its own silent
     * (down) peers, or is refused (counted in {@code LinkStats.peersRefused()}). Default: half the
     * peer table, at least 1. Loopback (this machine) is one address like any other: a local
     * process sending from many ports takes loopback's share, not the table.
     */
    public UdpLinkConfig peersPerHost(int peers) {
        if (peers < 1) {
            throw new IllegalArgumentException("peersPerHost must be >= 1: " + peers);
        }
        peersPerHost = peers;
        return this;
    }

    /**
     * Whether {@link #peersPerHost} applies to loopback senders too (default true). False exempts
     * this machine, so one local process sending from many ports can fill the whole table and lock
     * out every other client until its entries time out: only for a listener that no local process
     * but trusted ones can reach.
     */
    public UdpLinkConfig limitLoopbackPeers(boolean on) {
        limitLoopbackPeers = on;
        return this;
    }

    /**
     * Peer-table entries one source IP may hold: the value set, else half the peer table (at least
     * 1), never more than {@link #peerCapacity()}.
     */
    public int peersPerHost() {
        return Math.min(peerCapacity, peersPerHost > 0 ? peersPerHost : Math.max(1, peerCapacity / 2));
    }

    /** SO_RCVBUF size requested, in bytes; 0 keeps the OS default. */
    public int receiveBufferBytes() {
        return receiveBufferBytes;
    }

    /** Largest datagram, in bytes, the link sends or accepts (at most {@link #MAX_DATAGRAM}). */
    public int maxFrame() {
        return maxFrame;
    }

    /** Entries of a listener's peer table (distinct senders at once); default 16. */
    public int peerCapacity() {
        return peerCapacity;
    }

    /** Silence, in nanoseconds, after which an up peer is reported down; default 10 s. */
    public long peerTimeoutNanos() {
        return peerTimeoutNanos;
    }

    /** Silence, in nanoseconds, after which a peer is probed; default 3 s. */
    public long pingIntervalNanos() {
        return pingIntervalNanos;
    }
}
