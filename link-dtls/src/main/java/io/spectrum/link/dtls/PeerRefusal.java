package io.spectrum.link.dtls;

import java.security.cert.CertificateException;

/**
 * Why the link refused a peer's certificate: thrown by {@link FleetTrustManager} inside the handshake
 * and found again in the handshake's exception chain, so the link counts each reason apart
 * ({@link DtlsStats}).
 */
public final class PeerRefusal extends CertificateException {
    /** The certificate does not chain to the fleet CA (another CA, self-signed, expired, wrong use). */
    public static final int UNTRUSTED = 1;
    /** The certificate chains to the fleet CA but its serial is on the revocation list. */
    public static final int REVOKED = 2;

    private final int reason;

    PeerRefusal(int reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    /** Why the certificate was refused: {@link #UNTRUSTED} or {@link #REVOKED}. */
    public int reason() {
        return reason;
    }

    /** The refusal in {@code t}'s cause chain, or null (the peer sent no certificate, or the handshake failed otherwise). */
    static PeerRefusal in(Throwable t) {
        for (int depth = 0; t != null && depth < 16; depth++, t = t.getCause()) {
            if (t instanceof PeerRefusal) {
                return (PeerRefusal) t;
            }
        }
        return null;
    }
}
