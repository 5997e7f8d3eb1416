package io.spectrum.link.dtls;

import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.time.SystemClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLParameters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Clients that return the cookie and then stop (half-open handshakes) hold at most their
 * address's share of the listener's handshake table; a replayed cookie hello from another address
 * gets nothing; a host from another address connects meanwhile.
 */
class DtlsHandshakeTableTest {
    @TempDir
    Path dir;
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    /** A client that does the cookie exchange by hand and stops after its second ClientHello. */
    final class HalfOpen {
        final SSLEngine engine;
        final DatagramChannel ch;
        final InetSocketAddress board;
        byte[] cookieHello;

        HalfOpen(DtlsCredentials c, String ip, InetSocketAddress board) throws Exception {
            this.board = board;
            engine = c.context().createSSLEngine(board.getHostString(), board.getPort());
            engine.setUseClientMode(true);
            SSLParameters p = engine.getSSLParameters();
            p.setProtocols(new String[] {"DTLSv1.2"});
            engine.setSSLParameters(p);
            ch = DatagramChannel.open();
            open.add(ch);
            ch.bind(new InetSocketAddress(ip, 0));
            ch.configureBlocking(false);
        }

        private byte[] flight() throws Exception {
            ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
            for (int i = 0; i < 8 && out.position() == 0; i++) {
                for (Runnable t; (t = engine.getDelegatedTask()) != null; ) {
                    t.run();
                }
                engine.wrap(ByteBuffer.allocate(0), out);
            }
            out.flip();
            byte[] b = new byte[out.remaining()];
            out.get(b);
            return b;
        }

        /** Sends the first hello, takes the cookie, sends the second; returns it. */
        byte[] returnTheCookie() throws Exception {
            engine.beginHandshake();
            ch.send(ByteBuffer.wrap(flight()), board);
            ByteBuffer hvr = receive(ch);
            assertNotNull(hvr, "a HelloVerifyRequest");
            assertTrue(DtlsWorker.isHelloVerifyRequest(hvr));
            engine.unwrap(hvr, ByteBuffer.allocate(engine.getSession().getApplicationBufferSize()));
            assertEquals(HandshakeStatus.NEED_WRAP, engine.getHandshakeStatus() == HandshakeStatus.NEED_TASK
                    ? runTasks() : engine.getHandshakeStatus());
            cookieHello = flight();
            assertTrue(DtlsWorker.helloCookieLength(ByteBuffer.wrap(cookieHello)) > 0, "the hello carries the cookie");
            ch.send(ByteBuffer.wrap(cookieHello), board);
            return cookieHello;
        }

        private HandshakeStatus runTasks() {
            for (Runnable t; (t = engine.getDelegatedTask()) != null; ) {
                t.run();
            }
            return engine.getHandshakeStatus();
        }
    }

    /** The next datagram on {@code ch}, or null after 3 s (a hang guard). */
    static ByteBuffer receive(DatagramChannel ch) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(65536);
        long deadline = System.nanoTime() + 3_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (ch.receive(b) != null) {
                return b.flip();
            }
            Thread.sleep(1);
        }
        return null;
    }

    /** Polls {@code ch} for a datagram for {@code millis} (used only where none should come). */
    static ByteBuffer receiveWithin(DatagramChannel ch, long millis) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(65536);
        long deadline = System.nanoTime() + millis * 1_000_000L;
        while (System.nanoTime() < deadline) {
            if (ch.receive(b) != null) {
                return b.flip();
            }
            Thread.sleep(1);
        }
        return null;
    }

    @Test
    void halfOpenHandshakesHoldOnlyTheirAddressesShareAndAReplayGetsNothing() throws Exception {
        Fleet fleet = new Fleet(dir, "fleet");
        // the board on 127.0.0.2, the half-open clients from 127.0.0.1 (Linux routes 127/8 to loopback)
        DtlsLink board = DtlsLink.listen(1, new InetSocketAddress("127.0.0.2", 0), new UdpLinkConfig(),
                fleet.node("board1"), SystemClock.INSTANCE);
        open.add(board::close);
        InetSocketAddress at = board.localAddress();
        DtlsCredentials forger = fleet.node("forger");
        List<HalfOpen> held = new ArrayList<>();
        for (int i = 0; i < DtlsWorker.HANDSHAKES_PER_ADDRESS; i++) {
            HalfOpen h = new HalfOpen(forger, "127.0.0.1", at);
            h.returnTheCookie();
            assertNotNull(receive(h.ch), "the board went past the cookie: its flight");
            held.add(h);
        }
        // the worker counts a handshake after it sent the flight the client just read: wait for the count
        long counted = System.nanoTime() + 3_000_000_000L;
        while (board.dtlsStats().started() < DtlsWorker.HANDSHAKES_PER_ADDRESS && System.nanoTime() < counted) {
            Thread.sleep(1);
        }
        assertEquals(DtlsWorker.HANDSHAKES_PER_ADDRESS, board.dtlsStats().started());
        assertEquals(DtlsWorker.HANDSHAKES_PER_ADDRESS, board.dtlsStats().inFlight());

        // one more from the same address: it gets its cookie, but the cookie hello is refused
        HalfOpen over = new HalfOpen(forger, "127.0.0.1", at);
        over.returnTheCookie();
        assertNull(receiveWithin(over.ch, 300), "no flight for an address over its share");
        assertEquals(1, board.dtlsStats().handshakesRefused());

        // a held client's cookie hello replayed from another address: refused, no flight
        HalfOpen replay = new HalfOpen(forger, "127.0.0.3", at);
        replay.ch.send(ByteBuffer.wrap(held.get(0).cookieHello), at);
        assertNull(receiveWithin(replay.ch, 300), "no flight for a replayed hello");
        assertEquals(2, board.dtlsStats().handshakesRefused());
        assertEquals(DtlsWorker.HANDSHAKES_PER_ADDRESS, board.dtlsStats().started());
        assertEquals(0, board.dtlsStats().handshakesEvicted());

        // a host from another address (a dialer binds the board's loopback address: 127.0.0.2) connects
        DtlsLink host = DtlsLink.dial(2, at, new UdpLinkConfig(), fleet.node("host"), SystemClock.INSTANCE);
        open.add(host::close);
        DtlsLinkTest.pollUntil(() -> host.isPeerUp(0) && board.isPeerUp(0), board, host);
        assertTrue(host.isPeerUp(0) && board.isPeerUp(0), board.dtlsStats().toString());
        assertEquals("host", board.peerName(0));
    }
}
