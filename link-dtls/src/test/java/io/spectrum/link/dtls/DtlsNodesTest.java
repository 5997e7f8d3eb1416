package io.spectrum.link.dtls;

import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.fwd.RemoteClient;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.TlvWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A NARROW board and a NARROW host over DTLS links on loopback: values and subscriptions cross,
 * the board holds the host's slot under the handle of the host's certificate name, and a board
 * restart (a new process: new keys loaded, no session cache) is recovered within one liveness
 * period of the shared clock.
 */
class DtlsNodesTest {
    static final long PING_MS = 1000;
    static final long TIMEOUT_MS = 5000;
    static final long STEP_MS = 100;

    @TempDir
    Path dir;
    final SharedClock clock = new SharedClock();
    final NodePath counter = NodePath.of("/board/counter");
    final NodePath mirror = NodePath.of("/boards/b1/counter");
    final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    UdpLinkConfig config() {
        return new UdpLinkConfig().pingIntervalMillis(PING_MS).peerTimeoutMillis(TIMEOUT_MS);
    }

    NarrowNode node(boolean host) {
        NarrowNode n = new NarrowNode(NodeConfig.builder().clock(clock).remoteWritesToUndeclared(host).build());
        open.add(n::close);
        return n;
    }

    DtlsLink board(DtlsCredentials keys, int port) throws Exception {
        DtlsLink l = DtlsLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), port), config(), keys, clock);
        open.add(l::close);
        return l;
    }

    static void write(NarrowNode n, NodePath p, long v) {
        byte[] buf = new byte[16];
        int len = new TlvWriter(4).wrap(buf, 0, buf.length).value(v, 4).length();
        assertEquals(0, n.write(p, buf, 0, len));
    }

    static long value(NarrowNode n, NodePath p) {
        byte[] out = new byte[16];
        return n.read(p, out, 0, out.length) == 8 ? (out[4] & 0xFF) | (out[5] & 0xFF) << 8 : -1;
    }

    /** Polls both nodes (real sockets: the wait is a hang guard of 10 s, not a timing assertion). */
    static void pump(BooleanSupplier done, NarrowNode... nodes) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!done.getAsBoolean() && System.nanoTime() < deadline) {
            int n = 0;
            for (NarrowNode node : nodes) {
                n += node.poll();
            }
            if (n == 0) {
                Thread.sleep(1);
            }
        }
    }

    @Test
    void valuesAndSubscriptionsCrossAndTheBoardKnowsTheHostByItsName() throws Exception {
        Fleet fleet = new Fleet(dir, "fleet");
        NarrowNode board = node(false);
        NarrowNode host = node(true);
        DtlsLink boardLink = board(fleet.node("board1"), 0);
        DtlsLink hostLink = DtlsLink.dial(2, boardLink.localAddress(), config(), fleet.node("host"), clock);
        open.add(hostLink::close);
        board.attach(boardLink);
        host.attach(hostLink);
        write(board, counter, 1);
        pump(() -> hostLink.isPeerUp(0), board, host);

        int h = host.subscribeRemote(hostLink, 0, counter, mirror, DeliveryPolicy.DURABILITY_REQUEST);
        pump(() -> value(host, mirror) == 1 && host.remote().state(h) == RemoteClient.ACKED, board, host);
        assertEquals(1, value(host, mirror));
        assertEquals(RemoteClient.ACKED, host.remote().state(h));
        for (long v = 2; v <= 20; v++) {
            write(board, counter, v);
            long want = v;
            pump(() -> value(host, mirror) == want, board, host);
            assertEquals(v, value(host, mirror), "update " + v + " delivered");
        }
        int handle = 0;
        assertEquals("host", boardLink.peerName(handle));
        assertEquals(1, board.slotsHeldBy(boardLink, handle), "the slot is held by (link, handle of 'host')");
        assertEquals(0, boardLink.dtlsStats().refused());
    }

    @Test
    void aBoardRestartIsRecoveredWithinOneLivenessPeriod() throws Exception {
        Fleet fleet = new Fleet(dir, "fleet");
        NarrowNode board = node(false);
        NarrowNode host = node(true);
        DtlsLink boardLink = board(fleet.node("board1"), 0);
        int port = boardLink.localAddress().getPort();
        DtlsLink hostLink = DtlsLink.dial(2, boardLink.localAddress(), config(), fleet.node("host"), clock);
        open.add(hostLink::close);
        board.attach(boardLink);
        host.attach(hostLink);
        write(board, counter, 1);
        pump(() -> hostLink.isPeerUp(0), board, host);
        int h = host.subscribeRemote(hostLink, 0, counter, mirror, DeliveryPolicy.DURABILITY_REQUEST);
        pump(() -> value(host, mirror) == 1, board, host);
        assertEquals(1, value(host, mirror));

        // The board restarts: its process (node, link, keys read again, so no session cache) is new.
        boardLink.close();
        board.close();
        NarrowNode board2 = node(false);
        DtlsLink boardLink2 = board(DtlsCredentials.fromDir(dir, "board1"), port);
        board2.attach(boardLink2);
        write(board2, counter, 7);

        long restartedAt = clock.nanoTime();
        long recoveredAt = -1;
        for (long t = 0; t <= 2 * TIMEOUT_MS; t += STEP_MS) {
            clock.advanceMillis(STEP_MS);
            board2.tick();
            host.tick();
            // a step of the clock; a handshake in flight is waited for in real time (the clock stands
            // still meanwhile), so what is measured is the link's rules, not this machine's speed
            long stepStart = System.nanoTime();
            pump(() -> value(host, mirror) == 7 || hostLink.dtlsStats().inFlight() == 0
                    && boardLink2.dtlsStats().inFlight() == 0 && System.nanoTime() - stepStart > 20_000_000L, board2, host);
            if (value(host, mirror) == 7) {
                recoveredAt = clock.nanoTime();
                break;
            }
        }
        assertTrue(recoveredAt > 0, "the host mirrors the restarted board again; " + hostLink.dtlsStats());
        long took = recoveredAt - restartedAt;
        System.out.println("board restart: the host mirrors the new board after " + took / 1_000_000
                + " ms of the link clock (ping " + PING_MS + " ms, timeout " + TIMEOUT_MS + " ms); " + hostLink.dtlsStats());
        assertTrue(took <= TIMEOUT_MS * 1_000_000L, "recovered after " + took / 1_000_000 + " ms of the link clock");
        assertEquals(2, hostLink.dtlsStats().handshakes(), "a new handshake with the new board");
        assertEquals(1, boardLink2.dtlsStats().handshakes());
        write(board2, counter, 8);
        pump(() -> value(host, mirror) == 8, board2, host);
        assertEquals(8, value(host, mirror), "the subscription is live again");
    }
}
