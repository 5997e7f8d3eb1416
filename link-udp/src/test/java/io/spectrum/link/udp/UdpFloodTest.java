package io.spectrum.link.udp;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.PeerListener;
import io.spectrum.testing.Frames;
import io.spectrum.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A flood of well-shaped frames from many source ports does not starve the peers a listener
 * already serves, and a new client is admitted as docs/links.md says: at once from another address
 * (the flood only holds its own address's share), and from the flood's address once the flood's
 * entries are down.
 */
class UdpFloodTest {
    private static final int FLOOD_SOCKETS = 200;
    private static final int FLOOD_ROUNDS = 15;

    private final List<AutoCloseable> open = new ArrayList<>();
    private final ManualClock clock = new ManualClock(0);

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    /** Answers every frame with the same bytes, to the peer that sent it; records peer events. */
    static final class Echo implements FrameHandler, PeerListener {
        final List<String> events = new ArrayList<>();

        @Override
        public void onFrame(Link link, int peer, byte[] buf, int off, int len) {
            link.send(peer, buf, off, len);
        }

        @Override
        public void onPeerUp(Link link, int peer) {
            events.add("up " + peer);
        }

        @Override
        public void onPeerDown(Link link, int peer) {
            events.add("down " + peer);
        }
    }

    private DatagramChannel socket(String ip) throws Exception {
        DatagramChannel ch = DatagramChannel.open();
        open.add(ch);
        ch.bind(new InetSocketAddress(ip, 0));
        ch.configureBlocking(false);
        return ch;
    }

    private static void send(DatagramChannel ch, UdpLink to, int n) throws Exception {
        ch.send(ByteBuffer.wrap(Frames.value(n, 16)), to.localAddress());
    }

    /** Polls the listener until {@code ch} receives a datagram (true) or 5 s pass (a hang guard). */
    private static boolean answered(UdpLink server, Echo echo, DatagramChannel ch) throws Exception {
        ByteBuffer in = ByteBuffer.allocate(64);
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (System.nanoTime() < deadline) {
            in.clear();
            if (ch.receive(in) != null) {
                return true;
            }
            if (server.poll(echo, 64) == 0) {
                Thread.sleep(1);
            }
        }
        return false;
    }

    /** Polls until nothing more arrives for a few idle polls (drains what the flood left queued). */
    private static void drain(UdpLink server, Echo echo) throws Exception {
        for (int idle = 0; idle < 5; ) {
            if (server.poll(echo, 256) == 0) {
                idle++;
                Thread.sleep(1);
            } else {
                idle = 0;
            }
        }
    }

    @Test
    void aFloodFromManyPortsNeitherStarvesAnEstablishedClientNorLocksOutANewOne() throws Exception {
        UdpLink server = UdpLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                new UdpLinkConfig().peerCapacity(8).pingIntervalMillis(1000).peerTimeoutMillis(3000), clock);
        open.add(server::close);
        Echo echo = new Echo();
        server.setPeerListener(echo);

        // the established client shares the flood's address (the hard case: this machine's own tools)
        DatagramChannel established = socket("127.0.0.1");
        send(established, server, 0);
        assertTrue(answered(server, echo, established));
        assertEquals(List.of("up 0"), echo.events);

        List<DatagramChannel> flood = new ArrayList<>();
        for (int i = 0; i < FLOOD_SOCKETS; i++) {
            flood.add(socket("127.0.0.1"));
        }
        DatagramChannel sameHostNewcomer = socket("127.0.0.1");
        DatagramChannel otherHostNewcomer = socket("127.0.0.2"); // Linux routes all of 127/8 to loopback
        boolean otherHostAdmitted = false;
        int sent = 0;
        for (int round = 0; round < FLOOD_ROUNDS; round++) {
            for (int i = 0; i < FLOOD_SOCKETS; i++) {
                send(flood.get(i), server, round);
                sent++;
                if (i == FLOOD_SOCKETS / 2) {
                    send(established, server, 1000 + round); // in the middle of the flood's datagrams
                }
            }
            assertTrue(answered(server, echo, established), "the established client is answered in round " + round);
            if (round == FLOOD_ROUNDS / 2) {
                send(otherHostNewcomer, server, 1);
                otherHostAdmitted = answered(server, echo, otherHostNewcomer);
            }
            drain(server, echo);
        }
        assertEquals(FLOOD_SOCKETS * FLOOD_ROUNDS, sent);
        assertTrue(otherHostAdmitted, "a client from another address is admitted during the flood");
        assertTrue(server.stats().peersRefused() > 0, "the flood was refused past its share");
        assertEquals(server.peerTable().capacity(), 8);
        assertEquals(List.of("up 0", "up 1", "up 2", "up 3", "up 4"), echo.events,
                "the established client (0), three flood ports (its address's share of 4), the other host");

        // a newcomer from the flood's address waits while the flood's entries are up ...
        send(sameHostNewcomer, server, 2);
        long refusedBefore = server.stats().peersRefused();
        drain(server, echo); // loopback delivers at send: the datagram is in the listener's buffer by now
        assertEquals(refusedBefore + 1, server.stats().peersRefused(), "refused while the share is held by live peers");
        assertEquals(null, sameHostNewcomer.receive(ByteBuffer.allocate(64)), "and not answered");
        // ... and is admitted once they are down; the established client keeps talking meanwhile
        for (int s = 0; s < 4; s++) {
            clock.advanceMillis(1000);
            send(established, server, 2000 + s);
            assertTrue(answered(server, echo, established), "the established client is answered at +" + (s + 1) + " s");
            send(otherHostNewcomer, server, 3000 + s);
            assertTrue(answered(server, echo, otherHostNewcomer));
        }
        send(sameHostNewcomer, server, 3);
        assertTrue(answered(server, echo, sameHostNewcomer), "admitted once the flood's entries are down");
        assertTrue(echo.events.containsAll(List.of("down 1", "down 2", "down 3")), echo.events.toString());
        assertTrue(!echo.events.contains("down 0") && !echo.events.contains("down 4"),
                "the live clients were never dropped: " + echo.events);
        assertEquals(1, server.stats().peersEvicted(), "the newcomer took a down flood entry");
    }
}
