package io.spectrum.runtime;

import io.spectrum.link.dtls.DtlsCredentials;
import io.spectrum.link.udp.UdpLinkConfig;

/**
 * The per-link settings a node process takes from its command line, as one context object for
 * {@link LinkSpec}: the liveness timers, the frame size and the UDP receive buffer.
 *
 * <ul>
 *   <li>{@code pingMillis}: probe a quiet peer after this long; {@code timeoutMillis}: report it down.</li>
 *   <li>{@code frameBytes}: the largest frame the link carries ({@code --frame}); 0 keeps the link's
 *       default (UDP: the 65507-byte datagram; serial: 4096). The node the link is attached to
 *       refuses at write time any value that would not fit one frame of the smallest attached link.</li>
 *   <li>{@code receiveBufferBytes}: the UDP SO_RCVBUF request ({@code --rcvbuf}); default 4 MiB,
 *       0 keeps the OS default. The OS may grant less ({@link LinkNotices} warns).</li>
 *   <li>{@code peers}: how many peers a UDP listener holds at once (default 64; one address holds
 *       at most half, loopback included: docs/links.md, "Floods do not starve the running"), and the
 *       connections a stream listener holds at once ({@code tcp://}, {@code unix://}; default 64).</li>
 *   <li>{@code dtls}: the node's DTLS credentials ({@code --dtls-key}/{@code --dtls-ca} or
 *       {@code --dtls-keys}); null (the default) keeps UDP plain. With them, the UDP links this
 *       settings object opens are DTLS links, never both.</li>
 *   <li>{@code baud}: a serial link's rate when its URI names none ({@code --baud}; default 115200).</li>
 *   <li>{@code name}: the name a stream dialer announces in its hello ({@code unix://}, and {@code tcp://}
 *       when the hello is required), and the node name a {@code dtls://…?keys=DIR} link picks its key by;
 *       null: anonymous.</li>
 *   <li>{@code helloRequired}: a {@code tcp://} link is libtracer's TCP transport (no hello) unless this is
 *       set (the host bus's TCP listener and its clients); a {@code unix://} link always requires it.</li>
 *   <li>{@code allowRemote}: a TCP listener may bind the non-loopback address it was given (default true:
 *       the address is named, as for {@code --udp}); the host bus sets it from {@code --bus-allow-remote}.</li>
 * </ul>
 */
public final class LinkSettings {
    long pingMillis = LinkSpec.DEFAULT_PING_MILLIS;
    long timeoutMillis = LinkSpec.DEFAULT_TIMEOUT_MILLIS;
    int frameBytes;
    int receiveBufferBytes = UdpLinkConfig.DEFAULT_RECEIVE_BUFFER;
    DtlsCredentials dtls;
    int peers;
    int baud = DEFAULT_BAUD;
    String name;
    boolean helloRequired;
    boolean allowRemote = true;
    int batch = -1;

    /** A serial link's rate when neither its URI ({@code ?baud=N}) nor {@code --baud} names one. */
    public static final int DEFAULT_BAUD = 115200;

    /** Peers a UDP listener holds by default: a host's clients, all on one machine in the common case. */
    public static final int DEFAULT_LISTEN_PEERS = 64;

    /**
     * What a client dials with when given no link options ({@code spectrum read --peer ...}): the UDP
     * link's own timers (ping 3 s, peer timeout 10 s), not a node process's.
     */
    public static LinkSettings clientDefaults() {
        UdpLinkConfig d = new UdpLinkConfig();
        return new LinkSettings().pingMillis(d.pingIntervalNanos() / 1_000_000L)
                .timeoutMillis(d.peerTimeoutNanos() / 1_000_000L);
    }

    /** Probe a quiet peer after this many milliseconds (default {@link LinkSpec#DEFAULT_PING_MILLIS}). */
    public LinkSettings pingMillis(long ms) {
        pingMillis = ms;
        return this;
    }

    /** Report a silent peer down after this many milliseconds (default {@link LinkSpec#DEFAULT_TIMEOUT_MILLIS}). */
    public LinkSettings timeoutMillis(long ms) {
        timeoutMillis = ms;
        return this;
    }

    /** Largest frame carried; 0 = the link's default. */
    public LinkSettings frameBytes(int bytes) {
        if (bytes != 0 && bytes < 64) {
            throw new IllegalArgumentException("--frame must be 0 (the link's default) or at least 64 bytes, was " + bytes);
        }
        frameBytes = bytes;
        return this;
    }

    /** UDP receive buffer request; 0 = the OS default. */
    public LinkSettings receiveBufferBytes(int bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("--rcvbuf must be >= 0, was " + bytes);
        }
        receiveBufferBytes = bytes;
        return this;
    }

    /**
     * The peer table of a UDP listener opened with these settings (its distinct senders; one source
     * address may hold half of it), and the connections a stream listener holds at once; 0 =
     * {@link #DEFAULT_LISTEN_PEERS} (a stream listener's own default, 64).
     */
    public LinkSettings peers(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("the peer table must be >= 0 (0: the link's default), was " + n);
        }
        peers = n;
        return this;
    }

    /**
     * Datagrams a UDP link opened with these settings receives or sends per {@code recvmmsg} /
     * {@code sendmmsg} call, 1 to 1024, or 0 for one system call per datagram. Unset, the link's own
     * default ({@link UdpLinkConfig#DEFAULT_BATCH}). Batched I/O turned off for the process
     * ({@code spectrum.udp.batch=0}) stays off whatever is set here. Each slot holds one frame of
     * native memory per direction.
     */
    public LinkSettings batch(int datagrams) {
        batch = UdpLinkConfig.checkBatch(datagrams);
        return this;
    }

    /** The UDP batch as set, or -1 when unset (the link's default). */
    public int batch() {
        return batch;
    }

    /** The UDP listener's peer table as set; 0 means {@link #DEFAULT_LISTEN_PEERS}. */
    public int peers() {
        return peers;
    }

    /** DTLS credentials for the UDP links opened with these settings; null = plain UDP. */
    public LinkSettings dtls(DtlsCredentials credentials) {
        dtls = credentials;
        return this;
    }

    /** The DTLS credentials, or null for plain UDP. */
    public DtlsCredentials dtls() {
        return dtls;
    }

    /** A serial link's baud rate when its URI has no {@code ?baud=N} (default {@link #DEFAULT_BAUD}). */
    public LinkSettings baud(int rate) {
        if (rate <= 0) {
            throw new IllegalArgumentException("the baud rate must be positive, was " + rate);
        }
        baud = rate;
        return this;
    }

    /** The serial baud rate used when the URI names none. */
    public int baud() {
        return baud;
    }

    /**
     * The name a stream dialer announces ({@code unix://}, a hello-requiring {@code tcp://}) and a
     * {@code dtls://…?keys=DIR} link picks its key by; null: anonymous.
     */
    public LinkSettings name(String nodeName) {
        name = nodeName;
        return this;
    }

    /** The announced / key name, or null. */
    public String name() {
        return name;
    }

    /**
     * Whether a {@code tcp://} link requires (listener) and sends (dialer) Spectrum's hello: true for the
     * host bus's TCP socket, false (the default) for libtracer's TCP transport.
     */
    public LinkSettings helloRequired(boolean on) {
        helloRequired = on;
        return this;
    }

    /** Whether a {@code tcp://} link requires the hello. */
    public boolean helloRequired() {
        return helloRequired;
    }

    /** Whether a TCP listener may bind a non-loopback address it was given (default true). */
    public LinkSettings allowRemote(boolean on) {
        allowRemote = on;
        return this;
    }

    /** Whether a TCP listener may bind a non-loopback address. */
    public boolean allowRemote() {
        return allowRemote;
    }

    /** The ping interval in milliseconds. */
    public long pingMillis() {
        return pingMillis;
    }

    /** The peer timeout in milliseconds. */
    public long timeoutMillis() {
        return timeoutMillis;
    }

    /** The largest frame in bytes; 0 keeps the link's default. */
    public int frameBytes() {
        return frameBytes;
    }

    /** The UDP receive buffer request in bytes; 0 keeps the OS default. */
    public int receiveBufferBytes() {
        return receiveBufferBytes;
    }
}
