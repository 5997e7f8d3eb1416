package io.spectrum.cli;

import io.spectrum.link.dtls.DtlsCredentials;
import io.spectrum.link.dtls.DtlsLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.testing.Collector;
import io.spectrum.time.SystemClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code spectrum keys init/issue/revoke}, and a board started with {@code --dtls-keys} answering a DTLS host. */
class KeysCommandTest {
    @TempDir
    Path tmp;

    @Test
    void initIssueRevokeMakeTheFilesEveryNodeReads() throws Exception {
        Path dir = tmp.resolve("keys");
        Cli.Run init = Cli.run("keys", "init", "--dir", dir.toString());
        assertEquals(0, init.code(), init.all());
        assertTrue(Files.exists(dir.resolve("ca.key")) && Files.exists(dir.resolve("ca.crt")) && Files.exists(dir.resolve("revoked.crl")));
        Cli.Run again = Cli.run("keys", "init", "--dir", dir.toString());
        assertEquals(2, again.code());
        assertTrue(again.err().startsWith("spectrum keys: ") && again.err().contains("already holds a fleet CA"), again.err());

        assertEquals(0, Cli.run("keys", "issue", "board1", "--dir", dir.toString()).code());
        assertEquals(0, Cli.run("keys", "issue", "host", "--dir", dir.toString()).code());
        DtlsCredentials board = DtlsCredentials.fromDir(dir, "board1");
        assertEquals("board1", board.name());
        assertEquals(0, board.revokedCount());

        Cli.Run revoke = Cli.run("keys", "revoke", "host", "--dir", dir.toString());
        assertEquals(0, revoke.code(), revoke.all());
        assertEquals(1, DtlsCredentials.fromDir(dir, "board1").revokedCount());
        Cli.Run missing = Cli.run("keys", "issue", "x", "--dir", tmp.resolve("nowhere").toString());
        assertEquals(2, missing.code());
        assertTrue(missing.err().contains("spectrum keys init"), missing.err());
    }

    @Test
    void aBoardStartedWithDtlsKeysAnswersOnlyADtlsHostOfItsFleet() throws Exception {
        Path dir = tmp.resolve("keys");
        assertEquals(0, Cli.run("keys", "init", "--dir", dir.toString()).code());
        assertEquals(0, Cli.run("keys", "issue", "board1", "--dir", dir.toString()).code());
        assertEquals(0, Cli.run("keys", "issue", "host", "--dir", dir.toString()).code());
        int port;
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Cli.Run[] board = new Cli.Run[1];
        Thread t = new Thread(() -> board[0] = Cli.run("board", "--udp", "127.0.0.1:" + port, "--name", "board1",
                "--dtls-keys", dir.toString(), "--duration", "8"));
        t.start();
        DtlsLink host = DtlsLink.dial(2, new InetSocketAddress("127.0.0.1", port), new UdpLinkConfig(),
                DtlsCredentials.fromDir(dir, "host"), SystemClock.INSTANCE);
        try {
            Collector c = new Collector();
            long deadline = System.nanoTime() + 8_000_000_000L; // hang guard
            while (!host.isPeerUp(0) && System.nanoTime() < deadline) {
                host.poll(c, 16);
                Thread.sleep(5);
            }
            assertTrue(host.isPeerUp(0), "the board's DTLS link accepted the host: " + host.dtlsStats() + " / "
                    + (board[0] == null ? "(board running)" : board[0].all()));
            assertEquals("board1", host.peerName(0));
        } finally {
            host.close();
            t.join();
        }
        assertEquals(0, board[0].code(), board[0].all());
        assertTrue(board[0].out().contains("board1 ready on dtls 127.0.0.1:" + port), board[0].out());
    }

    @Test
    void dtlsOptionsAreRefusedInOneLineWhenIncompleteOrOnSerial() {
        Cli.Run half = Cli.run("board", "--udp", "127.0.0.1:0", "--dtls-key", tmp.resolve("b.key").toString());
        assertEquals(2, half.code());
        assertTrue(half.err().contains("needs both --dtls-key FILE and --dtls-ca FILE"), half.err());
        Cli.Run serial = Cli.run("board", "--serial", "/dev/null", "--dtls-keys", tmp.toString());
        assertEquals(2, serial.code());
        assertTrue(serial.err().contains("DTLS is for a UDP link"), serial.err());
        Cli.Run missing = Cli.run("board", "--udp", "127.0.0.1:0", "--dtls-keys", tmp.toString(), "--name", "nobody");
        assertEquals(2, missing.code());
        assertTrue(missing.err().contains("nobody.key") && missing.err().lines().count() == 1, missing.err());
    }

    @Test
    void flashInstallsTheBoardsKeyAndTheCaButNeverTheCaKey() throws Exception {
        Path dir = tmp.resolve("keys");
        assertEquals(0, Cli.run("keys", "init", "--dir", dir.toString()).code());
        assertEquals(0, Cli.run("keys", "issue", "board1", "--dir", dir.toString()).code());
        Path root = tmp.resolve("pi");
        Files.createDirectories(root.resolve("etc"));
        Files.createDirectories(root.resolve("usr/bin"));

        Cli.Run serial = Cli.run("flash", "--root", root.toString(), "--dtls-keys", dir.toString(), "--dtls-name", "board1");
        assertEquals(2, serial.code());
        assertTrue(serial.err().contains("DTLS is for a UDP link"), serial.err());
        Cli.Run noName = Cli.run("flash", "--root", root.toString(), "--udp", "0.0.0.0:7700", "--dtls-keys", dir.toString());
        assertEquals(2, noName.code());
        assertTrue(noName.err().contains("--dtls-name"), noName.err());

        Cli.Run r = Cli.run("flash", "--root", root.toString(), "--udp", "0.0.0.0:7700", "--dtls-keys", dir.toString(),
                "--dtls-name", "board1");
        assertEquals(0, r.code(), r.all());
        Path keys = root.resolve("etc/spectrum/keys");
        assertEquals(Files.readString(dir.resolve("board1.key")), Files.readString(keys.resolve("board.key")));
        assertEquals(java.util.Set.of(java.nio.file.attribute.PosixFilePermission.OWNER_READ,
                java.nio.file.attribute.PosixFilePermission.OWNER_WRITE), Files.getPosixFilePermissions(keys.resolve("board.key")));
        assertTrue(Files.exists(keys.resolve("board.crt")) && Files.exists(keys.resolve("ca.crt"))
                && Files.exists(keys.resolve("revoked.crl")));
        try (java.util.stream.Stream<Path> files = Files.list(keys)) {
            assertEquals(java.util.List.of("board.crt", "board.key", "ca.crt", "revoked.crl"),
                    files.map(p -> p.getFileName().toString()).sorted().toList(), "never ca.key");
        }
        String conf = Files.readString(root.resolve("etc/spectrum/board.conf"));
        assertTrue(conf.contains("DTLS_KEY=/etc/spectrum/keys/board.key\n") && conf.contains("DTLS_CA=/etc/spectrum/keys/ca.crt\n"), conf);
        // what the service gets through LoadCredential= is what the board reads
        assertEquals("board1", DtlsCredentials.fromFiles(keys.resolve("board.key"), keys.resolve("ca.crt")).name());
    }
}
