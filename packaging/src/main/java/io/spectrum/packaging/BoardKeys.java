package io.spectrum.packaging;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The DTLS files {@code flash} installs on a board (made by {@code spectrum keys issue NAME}): the
 * board's key and certificate and the fleet CA certificate, plus the revocation list when there
 * is one. Never the CA's own key. On the board they go to {@code /etc/spectrum/keys} under fixed
 * names ({@code board.key}, {@code board.crt}, {@code ca.crt}, {@code revoked.crl}); the board's
 * name is in its certificate.
 */
public record BoardKeys(Path key, Path cert, Path ca, Path revocationList) {
    /** Where the DTLS files go, relative to the board's root. */
    public static final String DIR = "etc/spectrum/keys";
    /** The board's key file name on the board. */
    public static final String KEY = "board.key";
    /** The board's certificate file name on the board. */
    public static final String CERT = "board.crt";
    /** The fleet CA certificate file name on the board. */
    public static final String CA = "ca.crt";
    /** The revocation list file name on the board (installed only when there is one). */
    public static final String CRL = "revoked.crl";

    /** {@code DIR/NAME.key}, {@code DIR/NAME.crt}, {@code DIR/ca.crt}, {@code DIR/revoked.crl} if present. */
    public static BoardKeys fromDir(Path dir, String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("--dtls-keys needs --dtls-name NAME: whose key to install (spectrum keys issue NAME made it)");
        }
        Path key = dir.resolve(name + ".key");
        Path cert = dir.resolve(name + ".crt");
        Path ca = dir.resolve("ca.crt");
        for (Path p : new Path[] {key, cert, ca}) {
            if (!Files.isRegularFile(p)) {
                throw new IllegalArgumentException(p + " does not exist (spectrum keys init / spectrum keys issue " + name
                        + " --dir " + dir + " make it)");
            }
        }
        Path crl = dir.resolve("revoked.crl");
        return new BoardKeys(key, cert, ca, Files.isRegularFile(crl) ? crl : null);
    }

    /** Where board.conf points the board: the key's path on the board. */
    public static String keyOnBoard() {
        return "/" + DIR + "/" + KEY;
    }

    /** Where board.conf points the board for the CA: its path on the board. */
    public static String caOnBoard() {
        return "/" + DIR + "/" + CA;
    }
}
