package io.spectrum.link.dtls;

import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.testing.Collector;
import io.spectrum.testing.Frames;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Forged ClientHellos (real JDK ClientHello datagrams, sent from many ports by senders that never
 * answer the cookie) at a DTLS listener: they create no handshake state, an established
 * association keeps delivering, and a host that starts during the flood connects while it lasts.
 */
class DtlsFloodTest {
    private static final int FLOOD_SOCKETS = 200;
    private static final int MAX_ROUNDS = 30;

    @TempDir
    Path dir;
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    /** The first datagram a JDK DTLS client sends: a ClientHello without a cookie. */
    static byte[] clientHello(DtlsCredentials c, InetSocketAddress to) throws Exception {
        SSLEngine e = c.context().createSSLEngine(to.getHostString(), to.getPort());
        e.setUseClientMode(true);
        SSLParameters p = e.getSSLParameters();
        p.setProtocols(new String[] {"DTLSv1.2"});
        e.setSSLParameters(p);
        e.beginHandshake();
        ByteBuffer out = ByteBuffer.allocate(e.getSession().getPacketBufferSize());
        for (int i = 0; i < 8 && out.position() == 0; i++) {
            for (Runnable t; (t = e.getDelegatedTask()) != null; ) {
                t.run();
            }
            e.wrap(ByteBuffer.allocate(0), out);
        }
        out.flip();
        byte[] b = new byte[out.remaining()];
        out.get(b);
        assertTrue(DtlsWorker.isClientHello(ByteBuffer.wrap(b)), "a ClientHello record");
        return b;
    }

    @Test
    void forgedHellosNeitherStallAnEstablishedAssociationNorKeepANewHostOut() throws Exception {
        Fleet fleet = new Fleet(dir, "fleet");
        UdpLinkConfig cfg = new UdpLinkConfig();
        DtlsLink board = DtlsLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), cfg,
                fleet.node("board1"), SystemClock.INSTANCE);
        open.add(board::close);
        DtlsLink host = DtlsLink.dial(2, board.localAddress(), cfg, fleet.node("host"), SystemClock.INSTANCE);
        open.add(host::close);
        Collector atBoard = new Collector();
        Collector atHost = new Collector();
        board.setPeerListener(atBoard);
        host.setPeerListener(atHost);
        Collector[] sinks = {atBoard, atHost};
        DtlsLinkTest.pollUntil(() -> host.isPeerUp(0) && board.isPeerUp(0), sinks, board, host);
        assertTrue(board.isPeerUp(0), "the established association; " + board.dtlsStats() + " / " + host.dtlsStats() + " " + board.lastRefusal());

        // forged hellos: real ClientHellos (distinct randoms), replayed from many ports that never answer
        DtlsCredentials forger = fleet.node("forger");
        byte[][] hellos = new byte[8][];
        for (int i = 0; i < hellos.length; i++) {
            hellos[i] = clientHello(forger, board.localAddress());
        }
        List<DatagramChannel> flood = new ArrayList<>();
        for (int i = 0; i < FLOOD_SOCKETS; i++) {
            DatagramChannel ch = DatagramChannel.open();
            open.add(ch);
            ch.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            flood.add(ch);
        }

        DtlsLink newHost = null;
        Collector atNewHost = new Collector();
        int sent = 0;
        int rounds = 0;
        for (int round = 0; round < MAX_ROUNDS; round++) {
            rounds = round + 1;
            for (int i = 0; i < FLOOD_SOCKETS; i++) {
                flood.get(i).send(ByteBuffer.wrap(hellos[(i + round) % hellos.length]), board.localAddress());
                sent++;
            }
            // the established association delivers in every round, both ways
            byte[] f = Frames.value(round, 16);
            int before = atBoard.frames.size();
            assertEquals(WireError.OK, host.send(0, f, 0, f.length));
            DtlsLinkTest.pollUntil(() -> atBoard.frames.size() > before, sinks, board, host);
            assertTrue(atBoard.frames.size() > before && Arrays.equals(f, atBoard.frames.get(before)),
                    "round " + round + ": the established host's frame is delivered; " + board.dtlsStats());
            int hostBefore = atHost.frames.size();
            assertEquals(WireError.OK, board.send(0, f, 0, f.length));
            DtlsLinkTest.pollUntil(() -> atHost.frames.size() > hostBefore, sinks, board, host);
            assertTrue(atHost.frames.size() > hostBefore, "round " + round + ": the board's frame is delivered");
            if (round == 1) {
                newHost = DtlsLink.dial(3, board.localAddress(), cfg, fleet.node("host2"), SystemClock.INSTANCE);
                open.add(newHost::close);
                newHost.setPeerListener(atNewHost);
            }
            if (newHost != null) {
                newHost.poll(atNewHost, 64);
                if (newHost.isPeerUp(0) && board.isPeerUp(1)) {
                    break;
                }
            }
            Thread.sleep(20); // pacing: the flood lasts while the new host handshakes
        }
        System.out.println("DTLS flood: " + sent + " forged hellos in " + rounds + " rounds; board " + board.dtlsStats());
        DtlsLink h2 = newHost;
        assertTrue(h2 != null && h2.isPeerUp(0) && board.isPeerUp(1),
                "the new host connected during the flood (" + rounds + " rounds of " + FLOOD_SOCKETS + "); "
                        + board.dtlsStats());
        assertEquals("host2", board.peerName(1));
        assertEquals(0, board.dtlsStats().handshakesEvicted(), "no handshake was pushed out by a forged hello");
        assertEquals(0, board.dtlsStats().inFlight(), "forged hellos left no handshake state");
        byte[] f = Frames.value(99, 16);
        assertEquals(WireError.OK, h2.send(0, f, 0, f.length));
        DtlsLinkTest.pollUntil(() -> atBoard.frames.stream().anyMatch(x -> Arrays.equals(x, f)),
                new Collector[] {atBoard, atNewHost}, board, h2);
        assertTrue(atBoard.frames.stream().anyMatch(x -> Arrays.equals(x, f)), "the new host's frame is delivered");
    }
}
