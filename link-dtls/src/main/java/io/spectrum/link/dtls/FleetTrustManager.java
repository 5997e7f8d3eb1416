package io.spectrum.link.dtls;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Trusts exactly the certificates the fleet CA signed and did not revoke: the JDK's PKIX trust
 * manager (anchored at the fleet CA alone) checks the chain, validity and key use; then the
 * revocation list read at start ({@link DtlsCredentials}) is looked up by serial. Each refusal is a
 * {@link PeerRefusal} naming its reason. No cryptography here: signatures are the JDK's.
 */
final class FleetTrustManager extends X509ExtendedTrustManager {
    private final X509ExtendedTrustManager pkix;
    private final X509CRL revoked;
    private final X509Certificate ca;

    FleetTrustManager(X509ExtendedTrustManager pkix, X509Certificate ca, X509CRL revoked) {
        this.pkix = pkix;
        this.ca = ca;
        this.revoked = revoked;
    }

    /** One of the PKIX delegate's checks. */
    private interface Pkix {
        void check() throws CertificateException;
    }

    /** The delegate's check, then the revocation list; every refusal a {@link PeerRefusal}. */
    private void check(X509Certificate[] chain, Pkix pkixCheck) throws CertificateException {
        try {
            pkixCheck.check();
        } catch (CertificateException e) {
            throw untrusted(chain, e);
        }
        notRevoked(chain);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
        check(chain, () -> pkix.checkClientTrusted(chain, authType, engine));
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
        check(chain, () -> pkix.checkServerTrusted(chain, authType, engine));
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        check(chain, () -> pkix.checkClientTrusted(chain, authType, socket));
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        check(chain, () -> pkix.checkServerTrusted(chain, authType, socket));
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        check(chain, () -> pkix.checkClientTrusted(chain, authType));
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        check(chain, () -> pkix.checkServerTrusted(chain, authType));
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[] {ca};
    }

    private static PeerRefusal untrusted(X509Certificate[] chain, CertificateException e) {
        String who = chain != null && chain.length > 0 ? DtlsCredentials.nameOf(chain[0]) : "?";
        return new PeerRefusal(PeerRefusal.UNTRUSTED, "certificate of '" + who + "' is not from the fleet CA: "
                + e.getMessage(), e);
    }

    private void notRevoked(X509Certificate[] chain) throws PeerRefusal {
        if (revoked != null && chain.length > 0 && revoked.isRevoked(chain[0])) {
            throw new PeerRefusal(PeerRefusal.REVOKED, "certificate of '" + DtlsCredentials.nameOf(chain[0])
                    + "' (serial " + chain[0].getSerialNumber().toString(16) + ") is revoked", null);
        }
    }
}
