package io.spectrum.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code spectrum host --bus PATH} makes a missing socket directory 0700 and the socket 0600 (docs/bus.md). */
class BusSocketPermissionsTest {
    @TempDir
    Path tmp;

    @Test
    void aSocketDirectoryTheHostCreatesIsOwnerOnlyAndTheSocketIsReadWriteForTheOwner() throws Exception {
        Path dir = tmp.resolve("run").resolve("spectrum");
        Path socket = dir.resolve("bus.sock");
        HostBusSetup.Started s = new HostBusSetup(socket.toString(), null, null, false, null)
                .start(io.spectrum.time.SystemClock.INSTANCE);
        try {
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.getParent())));
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)));
        } finally {
            s.host().close();
        }
    }
}
