package io.spectrum.link.dtls;

/**
 * What the DTLS layer of a link counted, readable from any thread. One writer: the link's thread,
 * through the package's {@code count} methods (an increment is a read then a write). Refused peers
 * got nothing: no peer handle, no frame reached the node.
 */
public final class DtlsStats {
    private volatile long started;
    private volatile long handshakes;
    private volatile long resumed;
    private volatile long cookiesSent;
    private volatile long retransmissions;
    private volatile long refusedUntrusted;
    private volatile long refusedRevoked;
    private volatile long refusedNoCertificate;
    private volatile long handshakeFailures;
    private volatile long handshakeTimeouts;
    private volatile long handshakesEvicted;
    private volatile long handshakesRefused;
    private volatile long hellosShed;
    private volatile long recordsDropped;
    private volatile long inboundDropped;
    private volatile long unfinished;

    /**
     * Handshakes begun: a client engine started, or (listener) a ClientHello that went past the
     * cookie and took an entry of the handshake table.
     */
    public long started() {
        return started;
    }

    /** Handshakes that ended with an accepted certificate. */
    public long handshakes() {
        return handshakes;
    }

    /** Of those, abbreviated handshakes that resumed an earlier session of the same peer. */
    public long resumed() {
        return resumed;
    }

    /** HelloVerifyRequests sent (the cookie exchange: a ClientHello must come back with the cookie). */
    public long cookiesSent() {
        return cookiesSent;
    }

    /** Handshake flights sent again after their answer did not come in time. */
    public long retransmissions() {
        return retransmissions;
    }

    /** Peers refused: a certificate that does not chain to the fleet CA. */
    public long refusedUntrusted() {
        return refusedUntrusted;
    }

    /** Peers refused: a certificate on the revocation list. */
    public long refusedRevoked() {
        return refusedRevoked;
    }

    /** Peers refused: no certificate at all. */
    public long refusedNoCertificate() {
        return refusedNoCertificate;
    }

    /** Handshakes that failed otherwise (protocol version, cipher suites, a bad message). */
    public long handshakeFailures() {
        return handshakeFailures;
    }

    /** Handshakes given up for lack of answer (among them every spoofed ClientHello, whose cookie went elsewhere). */
    public long handshakeTimeouts() {
        return handshakeTimeouts;
    }

    /**
     * Half-done handshakes dropped to make room for a new ClientHello. Stays 0 on a listener, which
     * never takes an entry from a handshake in progress ({@link #handshakesRefused()} instead).
     */
    public long handshakesEvicted() {
        return handshakesEvicted;
    }

    /**
     * ClientHellos with a cookie refused before any work: the handshake table was full, their
     * address held its share of it, or an entry already held their client random (a replay).
     */
    public long handshakesRefused() {
        return handshakesRefused;
    }

    /** ClientHellos dropped unanswered: more came in one pass over the socket than its budget. */
    public long hellosShed() {
        return hellosShed;
    }

    /** Datagrams from a source with no association that were not a ClientHello, or records that did not decrypt. */
    public long recordsDropped() {
        return recordsDropped;
    }

    /** Decrypted frames dropped because the node had not taken the earlier ones (the inbound ring was full). */
    public long inboundDropped() {
        return inboundDropped;
    }

    /** Handshakes dropped without an outcome (the association ended, or the peer table had no room). */
    public long unfinished() {
        return unfinished;
    }

    void countStarted() {
        started = started + 1;
    }

    void countHandshakes() {
        handshakes = handshakes + 1;
    }

    void countResumed() {
        resumed = resumed + 1;
    }

    void countCookiesSent() {
        cookiesSent = cookiesSent + 1;
    }

    void countRetransmissions() {
        retransmissions = retransmissions + 1;
    }

    void countRefusedUntrusted() {
        refusedUntrusted = refusedUntrusted + 1;
    }

    void countRefusedRevoked() {
        refusedRevoked = refusedRevoked + 1;
    }

    void countRefusedNoCertificate() {
        refusedNoCertificate = refusedNoCertificate + 1;
    }

    void countHandshakeFailures() {
        handshakeFailures = handshakeFailures + 1;
    }

    void countHandshakeTimeouts() {
        handshakeTimeouts = handshakeTimeouts + 1;
    }

    void countHandshakesEvicted() {
        handshakesEvicted = handshakesEvicted + 1;
    }

    void countHandshakesRefused() {
        handshakesRefused = handshakesRefused + 1;
    }

    void countHellosShed() {
        hellosShed = hellosShed + 1;
    }

    void countRecordsDropped() {
        recordsDropped = recordsDropped + 1;
    }

    void countInboundDropped() {
        inboundDropped = inboundDropped + 1;
    }

    void countUnfinished() {
        unfinished = unfinished + 1;
    }

    /** Handshakes begun and not yet ended one way or another (a snapshot; the counters move on the link's thread). */
    public long inFlight() {
        return Math.max(0, started - handshakes - refused() - handshakeFailures - handshakeTimeouts - handshakesEvicted
                - unfinished);
    }

    /** Refusals for any certificate reason (untrusted, revoked, none). */
    public long refused() {
        return refusedUntrusted + refusedRevoked + refusedNoCertificate;
    }

    @Override
    public String toString() {
        return "started=" + started + " handshakes=" + handshakes + " resumed=" + resumed + " cookies=" + cookiesSent
                + " retransmissions=" + retransmissions + " refused(untrusted=" + refusedUntrusted + " revoked="
                + refusedRevoked + " none=" + refusedNoCertificate + ") failures=" + handshakeFailures
                + " timeouts=" + handshakeTimeouts + " evicted=" + handshakesEvicted + " refusedHellos="
                + handshakesRefused + " shed=" + hellosShed + " dropped=" + recordsDropped
                + " inboundDropped=" + inboundDropped + " unfinished=" + unfinished;
    }
}
