package io.spectrum.link.local;

import io.spectrum.testing.Collector;
import io.spectrum.time.ManualClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.BindException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static io.spectrum.link.local.LocalLinkTest.poll;
import static io.spectrum.link.local.LocalLinkTest.pump;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The socket file of a Unix-socket listener: stale replaced, live refused, private, removed on close. */
class SocketFileTest {
    @TempDir
    Path tmp;
    private final ManualClock clock = new ManualClock(0);

    @Test
    void aStaleSocketFileFromACrashedRunIsReplaced() throws Exception {
        Path file = tmp.resolve("stale.sock");
        try (ServerSocketChannel crashed = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            crashed.bind(UnixDomainSocketAddress.of(file));
        } // closing does not remove the file: it is left as a crashed process leaves it
        assertTrue(Files.exists(file));
        LocalLink server = LocalLink.listen(1, UnixDomainSocketAddress.of(file), new LocalLinkConfig(), clock);
        try {
            assertEquals(1, server.localStats().staleSocketsReplaced());
            LocalLink client = LocalLink.connect(2, UnixDomainSocketAddress.of(file), "after", new LocalLinkConfig(), clock);
            Collector c = new Collector();
            pump(() -> server.openPeers().length == 1, poll(server, c));
            assertEquals("after", server.peerName(server.openPeers()[0]));
            client.close();
        } finally {
            server.close();
        }
    }

    @Test
    void aLiveListenerIsNotReplaced() throws Exception {
        Path file = tmp.resolve("live.sock");
        LocalLink first = LocalLink.listen(1, UnixDomainSocketAddress.of(file), new LocalLinkConfig(), clock);
        try {
            BindException e = assertThrows(BindException.class,
                    () -> LocalLink.listen(2, UnixDomainSocketAddress.of(file), new LocalLinkConfig(), clock));
            assertTrue(e.getMessage().contains("another process is listening"), e.getMessage());
            // the first listener still works
            LocalLink client = LocalLink.connect(3, UnixDomainSocketAddress.of(file), "still", new LocalLinkConfig(), clock);
            Collector c = new Collector();
            pump(() -> first.openPeers().length == 1, poll(first, c));
            assertEquals("still", first.peerName(first.openPeers()[0]));
            client.close();
        } finally {
            first.close();
        }
    }

    @Test
    void aFileThatIsNoSocketIsLeftAlone() throws Exception {
        Path file = tmp.resolve("notes.txt");
        Files.writeString(file, "keep me");
        assertThrows(BindException.class,
                () -> LocalLink.listen(1, UnixDomainSocketAddress.of(file), new LocalLinkConfig(), clock));
        assertEquals("keep me", Files.readString(file));
    }

    @Test
    void theSocketIsPrivateAndRemovedOnClose() throws Exception {
        Path dir = tmp.resolve("run/spectrum");
        Path file = dir.resolve("bus.sock");
        LocalLink server = LocalLink.listen(1, UnixDomainSocketAddress.of(file), new LocalLinkConfig(), clock);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
        server.close();
        assertFalse(Files.exists(file));
    }

    @Test
    void closeLeavesAFileThatIsNoLongerOurs() throws Exception {
        Path file = tmp.resolve("swap.sock");
        LocalLink server = LocalLink.listen(1, UnixDomainSocketAddress.of(file), new LocalLinkConfig(), clock);
        Files.delete(file);
        Files.writeString(file, "someone else's");
        server.close();
        assertEquals("someone else's", Files.readString(file));
    }
}
