package io.spectrum.link.dtls;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The PEM text form (RFC 7468) of the fleet's files: {@code -----BEGIN TYPE-----}, base64 lines of
 * 64, {@code -----END TYPE-----}. The one reader and writer of it in Spectrum; the files are the
 * ones openssl reads and writes (keys are unencrypted PKCS#8 "PRIVATE KEY").
 */
public final class Pem {
    /** PEM type of an unencrypted PKCS#8 private key. */
    public static final String PRIVATE_KEY = "PRIVATE KEY";
    /** PEM type of an X.509 certificate. */
    public static final String CERTIFICATE = "CERTIFICATE";
    /** PEM type of an X.509 certificate revocation list. */
    public static final String CRL = "X509 CRL";

    private Pem() {
    }

    /** {@code der} as a PEM block of {@code type}. */
    public static String write(String type, byte[] der) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
        return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
    }

    /** The DER bytes of the first {@code type} block in {@code text}. */
    public static byte[] read(String text, String type) {
        String begin = "-----BEGIN " + type + "-----";
        String end = "-----END " + type + "-----";
        int b = text.indexOf(begin);
        int e = b < 0 ? -1 : text.indexOf(end, b);
        if (b < 0 || e < 0) {
            throw new IllegalArgumentException("no " + type + " block (expected PEM text: " + begin + ")");
        }
        return Base64.getMimeDecoder().decode(text.substring(b + begin.length(), e));
    }
}
