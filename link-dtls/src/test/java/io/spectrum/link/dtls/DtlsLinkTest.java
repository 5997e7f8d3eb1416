package io.spectrum.link.dtls;

import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.testing.Collector;
import io.spectrum.testing.Frames;
import io.spectrum.time.Clock;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** DtlsLinks over real loopback sockets: handshake, frames both ways, identity = certificate name. */
class DtlsLinkTest {
    @TempDir
    Path dir;
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    DtlsLink listener(DtlsCredentials c, UdpLinkConfig cfg, Clock clock) throws Exception {
        DtlsLink l = DtlsLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), cfg, c, clock);
        open.add(l::close);
        return l;
    }

    DtlsLink dialer(DtlsLink to, DtlsCredentials c, UdpLinkConfig cfg, Clock clock) throws Exception {
        DtlsLink d = DtlsLink.dial(2, to.localAddress(), cfg, c, clock);
        open.add(d::close);
        return d;
    }

    /** Polls the links until {@code done} or 10 s (a guard against hangs, not a timing assertion). */
    static void pollUntil(BooleanSupplier done, Collector[] sinks, DtlsLink... links) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!done.getAsBoolean() && System.nanoTime() < deadline) {
            int n = 0;
            for (int i = 0; i < links.length; i++) {
                n += links[i].poll(sinks[i], 64);
            }
            if (n == 0) {
                Thread.sleep(1);
            }
        }
    }

    @Test
    void boardAndHostHandshakeExchangeFramesAndKnowEachOtherByCertificateName() throws Exception {
        long tf = System.nanoTime();
        Fleet fleet = new Fleet(dir, "fleet");
        DtlsCredentials b1 = fleet.node("board1");
        DtlsCredentials h = fleet.node("host");
        System.out.println("fleet ms " + (System.nanoTime() - tf) / 1e6);
        DtlsLink board = listener(b1, new UdpLinkConfig(), SystemClock.INSTANCE);
        DtlsLink host = dialer(board, h, new UdpLinkConfig(), SystemClock.INSTANCE);
        Collector atBoard = new Collector();
        Collector atHost = new Collector();
        board.setPeerListener(atBoard);
        host.setPeerListener(atHost);
        Collector[] sinks = {atBoard, atHost};

        long t0 = System.nanoTime();
        pollUntil(() -> host.isPeerUp(0) && board.isPeerUp(0), sinks, board, host);
        System.out.println("handshake ms " + (System.nanoTime() - t0) / 1e6 + " " + board.dtlsStats() + " / " + host.dtlsStats());
        assertEquals(List.of("up 0"), atHost.events);
        assertEquals(List.of("up 0"), atBoard.events);
        assertEquals("board1", host.peerName(0));
        assertEquals("host", board.peerName(0));
        assertEquals(1, board.dtlsStats().cookiesSent, "the server asked for the cookie before anything else");

        byte[] hello = Frames.value(7, 16);
        assertEquals(WireError.OK, host.send(0, hello, 0, hello.length));
        pollUntil(() -> atBoard.frames.size() == 1, sinks, board, host);
        System.out.println("frame ms " + (System.nanoTime() - t0) / 1e6);
        assertArrayEquals(hello, atBoard.frames.get(0));
        byte[] answer = Frames.value(8, 300);
        assertEquals(WireError.OK, board.send(0, answer, 0, answer.length));
        pollUntil(() -> atHost.frames.size() == 1, sinks, board, host);
        System.out.println("answer ms " + (System.nanoTime() - t0) / 1e6 + " " + board.stats().sendRefused + " " + host.stats().sendRefused);
        assertArrayEquals(answer, atHost.frames.get(0));
        assertEquals(1, board.dtlsStats().handshakes);
        assertEquals(1, host.dtlsStats().handshakes);
        assertEquals(0, board.dtlsStats().refused());
    }
}
