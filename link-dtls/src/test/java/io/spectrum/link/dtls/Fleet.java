package io.spectrum.link.dtls;

import io.spectrum.link.dtls.keys.FleetCa;

import java.io.IOException;
import java.nio.file.Path;

/** A fleet CA in a temporary directory with named nodes issued on demand (test fixture). */
final class Fleet {
    final Path dir;
    final FleetCa ca;

    Fleet(Path dir, String caName) throws IOException {
        this.dir = dir;
        this.ca = FleetCa.init(dir, caName);
    }

    /** Issues {@code name} (once) and reads its credentials, with the CA's current revocation list. */
    DtlsCredentials node(String name) throws IOException {
        if (!java.nio.file.Files.exists(dir.resolve(name + DtlsCredentials.KEY_SUFFIX))) {
            ca.issue(name, FleetCa.NODE_VALIDITY);
        }
        return DtlsCredentials.fromDir(dir, name);
    }

    /** A client trusting this CA but showing no certificate. */
    DtlsCredentials anonymous() throws IOException {
        return DtlsCredentials.withoutKey(dir.resolve(DtlsCredentials.CA_CERT), "anonymous");
    }
}
