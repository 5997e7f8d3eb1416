package io.spectrum.link.dtls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.List;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * One node's DTLS credentials, read once at start: its private key and certificate, the fleet CA
 * certificate (the only trust anchor) and the CA's revocation list when there is one. Builds the
 * JDK {@code SSLContext("DTLS")} every link of the process shares, so its session cache (and with
 * it session resumption) outlives a link that is closed and reopened.
 *
 * <p>Files (PEM, as {@code spectrum keys} writes them and openssl reads them): {@code NAME.key}
 * (PKCS#8), {@code NAME.crt}, {@code ca.crt}, {@code revoked.crl} (optional, beside {@code ca.crt}).
 */
public final class DtlsCredentials {
    /** The certificate file of a key file: {@code board1.key} -> {@code board1.crt}. */
    public static final String CERT_SUFFIX = ".crt";
    /** The private-key file suffix: {@code NAME.key}, PKCS#8 PEM. */
    public static final String KEY_SUFFIX = ".key";
    /** File name of the fleet CA certificate, the one trust anchor every node reads. */
    public static final String CA_CERT = "ca.crt";
    /**
     * File name of the CA's private key; it stays with the operator and is never flashed to a node.
     */
    public static final String CA_KEY = "ca.key";
    /**
     * File name of the CA-signed revocation list, optional, read beside {@link #CA_CERT} at start.
     */
    public static final String REVOCATION_LIST = "revoked.crl";

    private final SSLContext context;
    private final String name;
    private final X509Certificate certificate;
    private final X509CRL revoked;

    private DtlsCredentials(SSLContext context, X509Certificate certificate, X509CRL revoked, String name) {
        this.context = context;
        this.certificate = certificate;
        this.name = name;
        this.revoked = revoked;
    }

    /**
     * Reads {@code key} (its certificate is the {@code .crt} beside it) and the CA certificate
     * {@code ca}; the revocation list {@code revoked.crl} beside {@code ca} is read when present.
     */
    public static DtlsCredentials fromFiles(Path key, Path ca) throws IOException {
        String k = key.getFileName().toString();
        Path cert = key.resolveSibling((k.endsWith(KEY_SUFFIX) ? k.substring(0, k.length() - KEY_SUFFIX.length()) : k)
                + CERT_SUFFIX);
        // beside the CA, with the CA file's prefix if it has one (systemd credentials: keys_ca.crt, keys_revoked.crl)
        String c = ca.getFileName().toString();
        Path crl = ca.resolveSibling(c.endsWith(CA_CERT) ? c.substring(0, c.length() - CA_CERT.length()) + REVOCATION_LIST
                : REVOCATION_LIST);
        return load(key, cert, ca, Files.exists(crl) ? crl : null);
    }

    /** {@code DIR/NAME.key}, {@code DIR/NAME.crt}, {@code DIR/ca.crt}, {@code DIR/revoked.crl} if present. */
    public static DtlsCredentials fromDir(Path dir, String name) throws IOException {
        return fromFiles(dir.resolve(name + KEY_SUFFIX), dir.resolve(CA_CERT));
    }

    /**
     * Reads the four files ({@code crl} may be null). Every problem (a missing file, not PEM, a key
     * that does not match its certificate, a revocation list the CA did not sign) is an
     * {@link IOException} whose message names the file.
     */
    public static DtlsCredentials load(Path key, Path cert, Path ca, Path crl) throws IOException {
        PrivateKey privateKey = readKey(key);
        List<X509Certificate> chain = readCertificates(cert);
        X509Certificate caCert = readCertificates(ca).get(0);
        X509CRL list = crl == null ? null : readCrl(crl, caCert);
        try {
            chain.get(0).verify(caCert.getPublicKey());
        } catch (GeneralSecurityException e) {
            throw new IOException(cert + " is not signed by the CA in " + ca + " (issue it with `spectrum keys issue`)");
        }
        return build(privateKey, chain, caCert, list, key + " with " + cert);
    }

    /** The context for a key and its chain, trusting {@code caCert} minus {@code list}. */
    static DtlsCredentials build(PrivateKey privateKey, List<X509Certificate> chain, X509Certificate caCert, X509CRL list,
                                 String what) throws IOException {
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            char[] pass = new char[0];
            ks.setKeyEntry("self", privateKey, pass, chain.toArray(new X509Certificate[0]));
            KeyManagerFactory kmf = KeyManagerFactory.getInstance("PKIX");
            kmf.init(ks, pass);

            KeyStore anchors = KeyStore.getInstance("PKCS12");
            anchors.load(null, null);
            anchors.setCertificateEntry("fleet-ca", caCert);
            TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX");
            tmf.init(anchors);
            X509ExtendedTrustManager pkix = null;
            for (TrustManager tm : tmf.getTrustManagers()) {
                if (tm instanceof X509ExtendedTrustManager) {
                    pkix = (X509ExtendedTrustManager) tm;
                }
            }
            if (pkix == null) {
                throw new IOException("the JDK has no PKIX trust manager");
            }
            SSLContext ctx = SSLContext.getInstance("DTLS");
            ctx.init(kmf.getKeyManagers(), new TrustManager[] {new FleetTrustManager(pkix, caCert, list)}, null);
            return new DtlsCredentials(ctx, chain.get(0), list, nameOf(chain.get(0)));
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot use " + what + ": " + e.getMessage(), e);
        }
    }

    /**
     * A context with the fleet CA as its trust anchor and no key of its own: what a peer without a
     * certificate looks like (tests of the refusal).
     */
    static DtlsCredentials withoutKey(Path ca, String name) throws IOException {
        X509Certificate caCert = readCertificates(ca).get(0);
        try {
            KeyStore anchors = KeyStore.getInstance("PKCS12");
            anchors.load(null, null);
            anchors.setCertificateEntry("fleet-ca", caCert);
            TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX");
            tmf.init(anchors);
            SSLContext ctx = SSLContext.getInstance("DTLS");
            ctx.init(null, tmf.getTrustManagers(), null);
            return new DtlsCredentials(ctx, caCert, null, name);
        } catch (GeneralSecurityException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /** The shared DTLS context (client and server engines come from it). */
    public SSLContext context() {
        return context;
    }

    /** This node's name: its certificate's common name (CN). */
    public String name() {
        return name;
    }

    /** This node's own certificate (the one it presents in the handshake). */
    public X509Certificate certificate() {
        return certificate;
    }

    /** Revoked serials known at start (0 without a revocation list). */
    public int revokedCount() {
        return revoked == null || revoked.getRevokedCertificates() == null ? 0 : revoked.getRevokedCertificates().size();
    }

    /** The common name (CN) of a certificate's subject; the whole subject when it has none. */
    public static String nameOf(X509Certificate cert) {
        String subject = cert.getSubjectX500Principal().getName();
        try {
            for (Rdn rdn : new LdapName(subject).getRdns()) {
                if ("CN".equalsIgnoreCase(rdn.getType())) {
                    return String.valueOf(rdn.getValue());
                }
            }
        } catch (InvalidNameException e) {
            return subject;
        }
        return subject;
    }

    /** Reads an unencrypted PKCS#8 PEM private key (EC, RSA or Ed25519). */
    public static PrivateKey readKey(Path file) throws IOException {
        byte[] der;
        try {
            der = Pem.read(Files.readString(file, StandardCharsets.US_ASCII), Pem.PRIVATE_KEY);
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": " + e.getMessage());
        }
        for (String alg : new String[] {"EC", "RSA", "Ed25519"}) {
            try {
                return KeyFactory.getInstance(alg).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException e) {
                // try the next algorithm
            }
        }
        throw new IOException(file + ": not an EC, RSA or Ed25519 PKCS#8 private key");
    }

    /** Reads the PEM (or DER) certificates in a file, the first one first. */
    public static List<X509Certificate> readCertificates(Path file) throws IOException {
        try (InputStream in = new ByteArrayInputStream(Files.readAllBytes(file))) {
            List<X509Certificate> out = new ArrayList<>();
            for (java.security.cert.Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                out.add((X509Certificate) c);
            }
            if (out.isEmpty()) {
                throw new IOException(file + ": no certificate in it");
            }
            return out;
        } catch (GeneralSecurityException e) {
            throw new IOException(file + ": not a certificate: " + e.getMessage(), e);
        }
    }

    /** Reads a revocation list and checks that the CA signed it. */
    public static X509CRL readCrl(Path file, X509Certificate ca) throws IOException {
        try (InputStream in = new ByteArrayInputStream(Files.readAllBytes(file))) {
            X509CRL crl = (X509CRL) CertificateFactory.getInstance("X.509").generateCRL(in);
            crl.verify(ca.getPublicKey());
            return crl;
        } catch (GeneralSecurityException e) {
            throw new IOException(file + ": not a revocation list signed by the fleet CA: " + e.getMessage(), e);
        }
    }
}
