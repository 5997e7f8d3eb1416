package io.spectrum.board;

import io.spectrum.runtime.NodeLoop;
import io.spectrum.runtime.LinkSpec;
import io.spectrum.cli.SpectrumCommand;
import io.spectrum.link.serial.pty.PtyPair;
import io.spectrum.link.Link;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.node.fwd.RemoteClient;
import io.spectrum.node.api.NodePath;
import io.spectrum.time.SystemClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * `spectrum board` and a minimal host ({@link MiniHost}) as real processes: a board killed and
 * restarted shows staleness at the host and automatic re-subscription; a host killed shows eviction
 * at the board and a restarted host subscribes again; SIGINT stops a board cleanly.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class NodeProcessTest {
    static final String FAST = "--ping=100";
    static final String TIMEOUT = "--timeout=600";

    static int freeUdpPort() throws Exception {
        try (DatagramChannel c = DatagramChannel.open()) {
            c.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return ((InetSocketAddress) c.getLocalAddress()).getPort();
        }
    }

    static <T> T onNode(NodeLoop loop, Supplier<T> f) throws Exception {
        CompletableFuture<T> r = new CompletableFuture<>();
        loop.submit(() -> r.complete(f.get()));
        return r.get(5, TimeUnit.SECONDS);
    }

    static boolean eventually(BooleanSupplier c, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (c.getAsBoolean()) {
                return true;
            }
            Thread.sleep(20);
        }
        return false;
    }

    @Test
    void aBoardKilledAndRestartedShowsStalenessAndTheHostResubscribesByItself() throws Exception {
        int port = freeUdpPort();
        String addr = "127.0.0.1:" + port;
        ConcurrentLinkedQueue<String> updates = new ConcurrentLinkedQueue<>();
        NodeChild board = new NodeChild("board", "--udp", addr, "--name", "b1", "--period", "50", FAST, TIMEOUT);
        try (board; MiniHost host = new MiniHost("h", (b, path, value, seq, stale) ->
                updates.add(path + "=" + value + (stale ? " stale" : "")))) {
            assertNotNull(board.await(l -> l.startsWith("b1 ready on udp"), 30), board.output());
            Link link = LinkSpec.udpDial(1, addr, 100, 600, SystemClock.INSTANCE);
            host.addBoard(link, List.of("/counter", "/name"));
            host.start();
            NodePath counter = host.watches().get(0).target();
            int handle = host.watches().get(0).handle();
            assertTrue(eventually(() -> updates.contains("/name=\"b1\""), 20), "updates: " + updates);
            assertTrue(eventually(() -> updates.stream().filter(u -> u.startsWith("/counter=")).count() > 3, 20));
            assertTrue(eventually(() -> on(host.loop(), () -> !host.loop().node().isStale(counter)), 10));

            board.crash();
            assertTrue(eventually(() -> on(host.loop(), () -> host.loop().node().isStale(counter)), 20),
                    "the host marks the board's vertices stale when its link loses the board");
            assertEquals(RemoteClient.DOWN, (int) onNode(host.loop(), () -> host.loop().node().remote().state(handle)));
            int sendsBefore = onNode(host.loop(), () -> host.loop().node().remote().sends(handle));

            updates.clear();
            try (NodeChild again = new NodeChild("board", "--udp", addr, "--name", "b1", "--period", "50", FAST, TIMEOUT)) {
                assertNotNull(again.await(l -> l.startsWith("b1 ready on udp"), 30), again.output());
                assertTrue(eventually(() -> on(host.loop(), () -> host.loop().node().remote().state(handle) == RemoteClient.ACKED), 20),
                        "re-subscribed without the application doing anything");
                assertTrue(onNode(host.loop(), () -> host.loop().node().remote().sends(handle)) > sendsBefore);
                assertTrue(eventually(() -> updates.stream().anyMatch(u -> u.startsWith("/counter=") && !u.endsWith("stale")), 20),
                        "fresh deliveries: " + updates);
                assertTrue(eventually(() -> !on(host.loop(), () -> host.loop().node().isStale(counter)), 20), "staleness cleared by the next publish");
            }
        }
    }

    @Test
    void aHostKilledIsEvictedAtTheBoardAndARestartedHostSubscribesAgain() throws Exception {
        try (Board board = new Board("b2", 50)) {
            Link link = LinkSpec.udpListen(1, "127.0.0.1:0", 100, 600, SystemClock.INSTANCE);
            board.attach(link);
            board.start();
            String addr = "127.0.0.1:" + ((UdpLink) link).localAddress().getPort();
            try (NodeChild host = new NodeChild(List.of(addr, "/counter"), MiniHostMain.class.getName())) {
                assertNotNull(host.await(l -> l.contains("/counter = "), 30), host.output());
                assertTrue(eventually(() -> on(board.loop(), () -> board.loop().node().listenerCount(Board.COUNTER) == 1), 10));
                host.crash();
                assertTrue(eventually(() -> on(board.loop(), () -> board.loop().node().listenerCount(Board.COUNTER) == 0), 20),
                        "the board evicted the edge of the host it lost");
            }
            try (NodeChild host = new NodeChild(List.of(addr, "/counter"), MiniHostMain.class.getName())) {
                assertNotNull(host.await(l -> l.contains("/counter = "), 30), host.output());
                assertTrue(eventually(() -> on(board.loop(), () -> board.loop().node().listenerCount(Board.COUNTER) == 1), 10));
            }
        }
    }

    @Test
    void aBoardOnASerialPtyServesAHostAndBothRecoverWhenThePtyPairIsReplaced(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path a = dir.resolve("ttyA");
        java.nio.file.Path b = dir.resolve("ttyB");
        PtyPair pty = new PtyPair(a, b, dir.resolve("pty.log"));
        ConcurrentLinkedQueue<String> updates = new ConcurrentLinkedQueue<>();
        try (NodeChild board = new NodeChild("board", "--serial", a.toString(), "--baud", "921600", "--name", "s1",
                "--period", "50", FAST, TIMEOUT);
             MiniHost host = new MiniHost("h", (bd, path, value, seq, stale) -> updates.add(path + "=" + value))) {
            assertNotNull(board.await(l -> l.startsWith("s1 ready on serial"), 30), board.output());
            host.addBoard(LinkSpec.serial(1, b.toString(), 921600, 100, 600, SystemClock.INSTANCE), List.of("/counter"));
            host.start();
            int handle = host.watches().get(0).handle();
            assertTrue(eventually(() -> updates.size() > 3, 20), "updates over the pty: " + updates);
            pty.close();                                // both devices hang up and vanish
            assertTrue(eventually(() -> on(host.loop(), () -> host.loop().node().remote().state(handle) == RemoteClient.DOWN), 20));
            pty = new PtyPair(a, b, dir.resolve("pty.log")); // same names, new /dev/pts numbers
            updates.clear();
            assertTrue(eventually(() -> on(host.loop(), () -> host.loop().node().remote().state(handle) == RemoteClient.ACKED)
                    && updates.size() > 3, 30), "both ends reopened and the host re-subscribed: " + updates);
        } finally {
            pty.close();
        }
    }

    @Test
    void sigintStopsABoardAndReleasesItsPort() throws Exception {
        int port = freeUdpPort();
        try (NodeChild board = new NodeChild("board", "--udp", "127.0.0.1:" + port, "--name", "b3")) {
            assertNotNull(board.await(l -> l.startsWith("b3 ready"), 30), board.output());
            // the shell's own kill: a fresh Debian has no procps (/usr/bin/kill)
            Process kill = new ProcessBuilder("sh", "-c", "kill -INT " + board.process.pid()).start();
            assertEquals(0, kill.waitFor());
            assertTrue(board.process.waitFor(20, TimeUnit.SECONDS), "exited on SIGINT");
            try (DatagramChannel c = DatagramChannel.open()) {
                c.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port)); // the port is free again
            }
        }
    }

    @Test
    void badOptionsAreRefusedWithUsageErrors() {
        assertEquals(0, SpectrumCommand.execute("board", "--help"));
        assertEquals(2, SpectrumCommand.execute("board"));
        assertEquals(2, SpectrumCommand.execute("board", "--udp", "127.0.0.1:1", "--serial", "/dev/null"));
        assertEquals(2, SpectrumCommand.execute("board", "--udp", "no-port"));
        assertEquals(0, SpectrumCommand.execute("board", "--udp", "127.0.0.1:0", "--duration", "0.3"));
    }

    /** Evaluates on the node's thread (the node is single-threaded); false if it does not answer. */
    static boolean on(NodeLoop loop, Supplier<Boolean> s) {
        try {
            return onNode(loop, s);
        } catch (Exception e) {
            return false;
        }
    }
}
