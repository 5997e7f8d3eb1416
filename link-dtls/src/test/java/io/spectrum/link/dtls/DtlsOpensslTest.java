package io.spectrum.link.dtls;

import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.testing.Collector;
import io.spectrum.testing.Tools;
import io.spectrum.time.SystemClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Interop with an independent DTLS 1.2 implementation: OpenSSL's {@code s_server} and
 * {@code s_client}, with the certificates {@code spectrum keys} makes, complete a mutually
 * authenticated handshake with the link in both directions; and a certificate from another CA,
 * which s_client shows whatever the server asks for, is refused as untrusted. Skipped, with the
 * reason named, where openssl is not installed.
 */
class DtlsOpensslTest {
    @TempDir
    Path dir;
    final List<Process> processes = new ArrayList<>();
    final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
        for (Process p : processes) {
            p.destroyForcibly().waitFor();
        }
    }

    Path openssl() {
        return Tools.require("openssl", "openssl", "the DTLS interop test runs openssl s_server and s_client");
    }

    /** Starts openssl; its output lines are collected as they come. */
    List<String> start(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        processes.add(p);
        List<String> lines = new CopyOnWriteArrayList<>();
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (java.io.IOException ignored) {
                // the process ended
            }
        });
        t.setDaemon(true);
        t.start();
        return lines;
    }

    static int freePort() throws Exception {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    static boolean waitFor(java.util.function.BooleanSupplier done, DtlsLink link) throws InterruptedException {
        Collector c = new Collector();
        long deadline = System.nanoTime() + 15_000_000_000L; // a hang guard, not a timing assertion
        while (!done.getAsBoolean() && System.nanoTime() < deadline) {
            link.poll(c, 16);
            Thread.sleep(5);
        }
        return done.getAsBoolean();
    }

    @Test
    void theLinkDialsOpensslServer() throws Exception {
        Path openssl = openssl();
        Fleet fleet = new Fleet(dir, "fleet");
        fleet.node("board1");
        int port = freePort();
        List<String> out = start(List.of(openssl.toString(), "s_server", "-dtls1_2", "-accept", "127.0.0.1:" + port,
                "-cert", dir.resolve("board1.crt").toString(), "-key", dir.resolve("board1.key").toString(),
                "-CAfile", dir.resolve("ca.crt").toString(), "-Verify", "1", "-verify_return_error"));
        assertTrue(waitForLine(out, "ACCEPT"), "s_server started: " + out);
        DtlsLink host = DtlsLink.dial(2, new InetSocketAddress("127.0.0.1", port), new UdpLinkConfig(), fleet.node("host"),
                SystemClock.INSTANCE);
        open.add(host::close);
        assertTrue(waitFor(() -> host.isPeerUp(0), host), "handshake with s_server: " + host.dtlsStats() + " " + out);
        assertEquals("board1", host.peerName(0));
        assertTrue(waitForLine(out, "CN = host") || waitForLine(out, "CN=host"), "s_server saw the host's certificate: " + out);
    }

    @Test
    void opensslClientDialsTheLink() throws Exception {
        Path openssl = openssl();
        Fleet fleet = new Fleet(dir, "fleet");
        fleet.node("host");
        DtlsLink board = DtlsLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), new UdpLinkConfig(),
                fleet.node("board1"), SystemClock.INSTANCE);
        open.add(board::close);
        List<String> out = client(openssl, board, dir.resolve("host.key"), dir.resolve("host.crt"), dir.resolve("ca.crt"));
        assertTrue(waitFor(() -> board.dtlsStats().handshakes() == 1, board), "handshake with s_client: " + board.dtlsStats() + " " + out);
        assertEquals("host", board.peerName(0));
        assertEquals(1, board.dtlsStats().cookiesSent(), "s_client went through the cookie exchange");
        assertTrue(waitForLine(out, "Verify return code: 0 (ok)"), "s_client verified the board's certificate: " + out);
    }

    @Test
    void opensslClientWithAnotherCasCertificateIsRefusedAsUntrusted() throws Exception {
        Path openssl = openssl();
        Fleet fleet = new Fleet(dir.resolve("fleet"), "fleet");
        Fleet other = new Fleet(dir.resolve("other"), "other");
        other.node("host");
        DtlsLink board = DtlsLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), new UdpLinkConfig(),
                fleet.node("board1"), SystemClock.INSTANCE);
        open.add(board::close);
        Path o = dir.resolve("other");
        client(openssl, board, o.resolve("host.key"), o.resolve("host.crt"), dir.resolve("fleet").resolve("ca.crt"));
        assertTrue(waitFor(() -> board.dtlsStats().refusedUntrusted() == 1, board), board.dtlsStats().toString());
        assertEquals(0, board.dtlsStats().handshakes());
        assertEquals(0, board.peers().inUse());
    }

    private List<String> client(Path openssl, DtlsLink board, Path key, Path cert, Path ca) throws Exception {
        return start(List.of(openssl.toString(), "s_client", "-dtls1_2", "-connect", "127.0.0.1:" + board.localAddress().getPort(),
                "-cert", cert.toString(), "-key", key.toString(), "-CAfile", ca.toString(), "-verify_return_error"));
    }

    static boolean waitForLine(List<String> lines, String part) throws InterruptedException {
        long deadline = System.nanoTime() + 15_000_000_000L;
        while (System.nanoTime() < deadline) {
            for (String l : lines) {
                if (l.contains(part)) {
                    return true;
                }
            }
            Thread.sleep(10);
        }
        return false;
    }
}
