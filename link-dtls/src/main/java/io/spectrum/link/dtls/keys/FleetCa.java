package io.spectrum.link.dtls.keys;

import io.spectrum.link.dtls.DtlsCredentials;
import io.spectrum.link.dtls.Pem;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509CRL;
import java.security.cert.X509CRLEntry;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.CRLNumber;
import org.bouncycastle.asn1.x509.CRLReason;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v2CRLBuilder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CRLConverter;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v2CRLBuilder;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The fleet's certificate authority in a directory of PEM files ({@code spectrum keys}): Bouncy
 * Castle's PKIX builders make the certificates and the revocation list, the JDK makes the keys
 * (EC P-256) and signs (SHA256withECDSA). Nothing here is hand-written cryptography.
 *
 * <pre>
 * DIR/ca.key       the CA's private key: stays on the operator's machine, never flashed
 * DIR/ca.crt       the CA certificate every node trusts (and only it)
 * DIR/revoked.crl  the revocation list, signed by the CA; read by every node at start
 * DIR/NAME.key     a board's or host's private key (PKCS#8), and DIR/NAME.crt its certificate (CN=NAME)
 * </pre>
 */
public final class FleetCa {
    /** Validity of a new CA certificate: 10 years. */
    public static final Duration CA_VALIDITY = Duration.ofDays(3650);
    /** Usual validity of an issued node certificate: 825 days (also {@code spectrum keys issue}'s default). */
    public static final Duration NODE_VALIDITY = Duration.ofDays(825);
    private static final String SIGNATURE = "SHA256withECDSA";

    private final Path dir;
    private final PrivateKey caKey;
    private final X509Certificate caCert;

    private FleetCa(Path dir, PrivateKey caKey, X509Certificate caCert) {
        this.dir = dir;
        this.caKey = caKey;
        this.caCert = caCert;
    }

    /** Creates a CA named {@code name} in {@code dir} (refused when one is there) with an empty revocation list. */
    public static FleetCa init(Path dir, String name) throws IOException {
        Path key = dir.resolve(DtlsCredentials.CA_KEY);
        if (Files.exists(key)) {
            throw new IOException(key + " exists: this directory already holds a fleet CA");
        }
        Files.createDirectories(dir);
        try {
            KeyPair kp = newKeyPair();
            X500Name subject = cn(name);
            Instant now = Instant.now();
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(subject, serial(),
                    Date.from(now.minus(Duration.ofMinutes(5))), Date.from(now.plus(CA_VALIDITY)), subject, kp.getPublic());
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(kp.getPublic()));
            X509Certificate cert = new JcaX509CertificateConverter().getCertificate(b.build(signer(kp.getPrivate())));
            writeKey(key, kp.getPrivate());
            Files.writeString(dir.resolve(DtlsCredentials.CA_CERT), Pem.write(Pem.CERTIFICATE, cert.getEncoded()),
                    StandardCharsets.US_ASCII);
            FleetCa ca = new FleetCa(dir, kp.getPrivate(), cert);
            ca.writeCrl(new BigInteger[0], BigInteger.ONE);
            return ca;
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IOException("cannot create the CA: " + e.getMessage(), e);
        }
    }

    /** The CA in {@code dir} ({@code ca.key}, {@code ca.crt}). */
    public static FleetCa open(Path dir) throws IOException {
        Path key = dir.resolve(DtlsCredentials.CA_KEY);
        if (!Files.exists(key)) {
            throw new IOException("no fleet CA in " + dir + " (create one with `spectrum keys init`)");
        }
        return new FleetCa(dir, DtlsCredentials.readKey(key),
                DtlsCredentials.readCertificates(dir.resolve(DtlsCredentials.CA_CERT)).get(0));
    }

    /** The CA's own certificate, the fleet's trust anchor ({@code ca.crt}). */
    public X509Certificate certificate() {
        return caCert;
    }

    /** The directory the CA's files live in. */
    public Path dir() {
        return dir;
    }

    /**
     * Issues a key and a certificate (CN={@code name}, for both client and server use, valid
     * {@code validity}) into {@code DIR/NAME.key} and {@code DIR/NAME.crt}; refused when the name
     * already has a key there.
     */
    public X509Certificate issue(String name, Duration validity) throws IOException {
        if (name.isEmpty() || name.indexOf('/') >= 0 || name.startsWith(".") || "ca".equals(name)) {
            throw new IOException("'" + name + "' cannot be a node name (no '/', no leading '.', not 'ca')");
        }
        Path key = dir.resolve(name + DtlsCredentials.KEY_SUFFIX);
        if (Files.exists(key)) {
            throw new IOException(key + " exists: " + name + " already has a key (revoke it, then remove its files)");
        }
        try {
            KeyPair kp = newKeyPair();
            Instant now = Instant.now();
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(caCert, serial(),
                    Date.from(now.minus(Duration.ofMinutes(5))), Date.from(now.plus(validity)), cn(name), kp.getPublic());
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement));
            b.addExtension(Extension.extendedKeyUsage, false,
                    new ExtendedKeyUsage(new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));
            b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(kp.getPublic()));
            b.addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(caCert));
            X509Certificate cert = new JcaX509CertificateConverter().getCertificate(b.build(signer(caKey)));
            writeKey(key, kp.getPrivate());
            Files.writeString(dir.resolve(name + DtlsCredentials.CERT_SUFFIX), Pem.write(Pem.CERTIFICATE, cert.getEncoded()),
                    StandardCharsets.US_ASCII);
            return cert;
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IOException("cannot issue " + name + ": " + e.getMessage(), e);
        }
    }

    /** Adds {@code DIR/NAME.crt}'s serial to the revocation list (a new list, signed, with the next number). */
    public BigInteger revoke(String name) throws IOException {
        X509Certificate cert = DtlsCredentials.readCertificates(dir.resolve(name + DtlsCredentials.CERT_SUFFIX)).get(0);
        Path crlFile = dir.resolve(DtlsCredentials.REVOCATION_LIST);
        X509CRL old = Files.exists(crlFile) ? DtlsCredentials.readCrl(crlFile, caCert) : null;
        java.util.List<BigInteger> serials = new java.util.ArrayList<>();
        if (old != null && old.getRevokedCertificates() != null) {
            for (X509CRLEntry e : old.getRevokedCertificates()) {
                serials.add(e.getSerialNumber());
            }
        }
        if (!serials.contains(cert.getSerialNumber())) {
            serials.add(cert.getSerialNumber());
        }
        BigInteger number = BigInteger.ONE;
        byte[] n = old == null ? null : old.getExtensionValue(Extension.cRLNumber.getId());
        if (n != null) {
            number = CRLNumber.getInstance(org.bouncycastle.asn1.ASN1OctetString.getInstance(n).getOctets()).getCRLNumber()
                    .add(BigInteger.ONE);
        }
        try {
            writeCrl(serials.toArray(new BigInteger[0]), number);
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IOException("cannot sign the revocation list: " + e.getMessage(), e);
        }
        return cert.getSerialNumber();
    }

    private void writeCrl(BigInteger[] serials, BigInteger number) throws GeneralSecurityException, OperatorCreationException,
            IOException {
        Date now = new Date();
        X509v2CRLBuilder b = new JcaX509v2CRLBuilder(caCert, now);
        b.setNextUpdate(Date.from(Instant.now().plus(CA_VALIDITY)));
        for (BigInteger s : serials) {
            b.addCRLEntry(s, now, CRLReason.keyCompromise);
        }
        b.addExtension(Extension.authorityKeyIdentifier, false, new JcaX509ExtensionUtils().createAuthorityKeyIdentifier(caCert));
        b.addExtension(Extension.cRLNumber, false, new CRLNumber(number));
        X509CRL crl = new JcaX509CRLConverter().getCRL(b.build(signer(caKey)));
        Files.writeString(dir.resolve(DtlsCredentials.REVOCATION_LIST), Pem.write(Pem.CRL, crl.getEncoded()),
                StandardCharsets.US_ASCII);
    }

    private static X500Name cn(String name) {
        return new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, name).build();
    }

    private static BigInteger serial() {
        return new BigInteger(63, new SecureRandom()).add(BigInteger.ONE);
    }

    private static KeyPair newKeyPair() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        return g.generateKeyPair();
    }

    private static ContentSigner signer(PrivateKey key) throws OperatorCreationException {
        return new JcaContentSignerBuilder(SIGNATURE).build(key);
    }

    /** Writes a private key readable by its owner only (where the file system has POSIX permissions). */
    private static void writeKey(Path file, PrivateKey key) throws IOException {
        Files.writeString(file, "", StandardCharsets.US_ASCII);
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: the directory's own protection applies
        }
        Files.writeString(file, Pem.write(Pem.PRIVATE_KEY, key.getEncoded()), StandardCharsets.US_ASCII);
    }
}
