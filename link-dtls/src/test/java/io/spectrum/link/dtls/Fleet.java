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

    /** {@code name}, issued by this CA, but trusting {@code other}'s CA: a stranger to {@code other}'s fleet. */
    DtlsCredentials strangerTo(Fleet other, String name) throws IOException {
        ca.issue(name, FleetCa.NODE_VALIDITY);
        return DtlsCredentials.build(DtlsCredentials.readKey(dir.resolve(name + ".key")),
                DtlsCredentials.readCertificates(dir.resolve(name + ".crt")), other.ca.certificate(), null, name);
    }

    /** A client trusting this CA but showing no certificate. */
    DtlsCredentials anonymous() throws IOException {
        return DtlsCredentials.withoutKey(dir.resolve(DtlsCredentials.CA_CERT), "anonymous");
    }
}
