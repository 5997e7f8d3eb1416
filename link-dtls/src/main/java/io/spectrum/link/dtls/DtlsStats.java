package io.spectrum.link.dtls;

/**
 * What the DTLS layer of a link counted, written by the link's thread, readable from any thread.
 * Refused peers got nothing: no peer handle, no frame reached the node.
 */
public final class DtlsStats {
    /**
     * Handshakes begun: a client engine started, or (listener) a ClientHello that went past the
     * cookie and took an entry of the handshake table.
     */
    public volatile long started;
    /** Handshakes that ended with an accepted certificate. */
    public volatile long handshakes;
    /** Of those, abbreviated handshakes that resumed an earlier session of the same peer. */
    public volatile long resumed;
    /** HelloVerifyRequests sent (the cookie exchange: a ClientHello must come back with the cookie). */
    public volatile long cookiesSent;
    /** Handshake flights sent again after their answer did not come in time. */
    public volatile long retransmissions;
    /** Peers refused: a certificate that does not chain to the fleet CA. */
    public volatile long refusedUntrusted;
    /** Peers refused: a certificate on the revocation list. */
    public volatile long refusedRevoked;
    /** Peers refused: no certificate at all. */
    public volatile long refusedNoCertificate;
    /** Handshakes that failed otherwise (protocol version, cipher suites, a bad message). */
    public volatile long handshakeFailures;
    /** Handshakes given up for lack of answer (among them every spoofed ClientHello, whose cookie went elsewhere). */
    public volatile long handshakeTimeouts;
    /**
     * Half-done handshakes dropped to make room for a new ClientHello. Stays 0 on a listener, which
     * never takes an entry from a handshake in progress ({@link #handshakesRefused} instead).
     */
    public volatile long handshakesEvicted;
    /**
     * ClientHellos with a cookie refused before any work: the handshake table was full, their
     * address held its share of it, or an entry already held their client random (a replay).
     */
    public volatile long handshakesRefused;
    /** ClientHellos dropped unanswered: more came in one pass over the socket than its budget. */
    public volatile long hellosShed;
    /** Datagrams from a source with no association that were not a ClientHello, or records that did not decrypt. */
    public volatile long recordsDropped;
    /** Decrypted frames dropped because the node had not taken the earlier ones (the inbound ring was full). */
    public volatile long inboundDropped;

    /** Handshakes begun and not yet ended one way or another (a snapshot; the counters move on the link's thread). */
    public long inFlight() {
        return Math.max(0, started - handshakes - refused() - handshakeFailures - handshakeTimeouts - handshakesEvicted
                - unfinished);
    }

    /** Handshakes dropped without an outcome (the association ended, or the peer table had no room). */
    public volatile long unfinished;

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
