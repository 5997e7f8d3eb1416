package io.spectrum.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spectrum.board.Board;
import io.spectrum.host.runtime.HostRuntime;
import io.spectrum.host.runtime.HostService;
import io.spectrum.link.Link;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.runtime.LinkSettings;
import io.spectrum.runtime.LinkSpec;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static io.spectrum.cli.ClientCommandsTest.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code spectrum record} of a board, then {@code spectrum replay --as board1} mounted by a host:
 * {@code sub --json '/board1/#'} on the host yields the recorded (path, value) sequence. Driven by
 * the writes the test makes (no timed assertion: waits are bounded by the class timeout only).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RecordReplayTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void recordThenReplayMountedByAHostYieldsTheRecordedSequence() throws Exception {
        Path file = dir.resolve("rec.jsonl");
        // ---- record: a board with the demo declarations, written by the test
        HostRuntime board = new HostRuntime("board", new NarrowNode(NodeConfig.defaults()));
        List<String[]> expected = new ArrayList<>();
        try {
            Board.declare(board.node());
            UdpLink link = UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0), new UdpLinkConfig(), SystemClock.INSTANCE);
            board.attach(link);
            board.start();
            String addr = "127.0.0.1:" + link.localAddress().getPort();
            assertEquals(WireError.OK, board.write("/temp", value(2328, 2)));
            assertEquals(WireError.OK, board.write("/humidity", value(483, 2)));
            CompletableFuture<Cli.Run> rec = CompletableFuture.supplyAsync(() -> Cli.run("record", "--peer", addr,
                    file.toString(), "/temp", "/humidity", "--count", "8"));
            expected.add(new String[] {"/temp", "2328", "23.28"});
            expected.add(new String[] {"/humidity", "483", "48.3"});
            waitFor(() -> lines(file).size() >= 2 || rec.isDone()); // both subscribed: their current values are in
            long[][] writes = {{2301, 481}, {2302, 482}, {2303, 484}};
            for (long[] w : writes) {
                assertEquals(WireError.OK, board.write("/temp", value(w[0], 2)));
                expected.add(new String[] {"/temp", Long.toString(w[0]), new java.math.BigDecimal(w[0]).movePointLeft(2).toPlainString()});
                assertEquals(WireError.OK, board.write("/humidity", value(w[1], 2)));
                expected.add(new String[] {"/humidity", Long.toString(w[1]), new java.math.BigDecimal(w[1]).movePointLeft(1).toPlainString()});
            }
            Cli.Run r = rec.get(60, TimeUnit.SECONDS);
            assertEquals(0, r.code(), r.all());
            assertTrue(r.err().contains("8 values recorded to " + file), r.err());
        } finally {
            board.close();
        }
        List<JsonNode> recorded = new ArrayList<>();
        for (String l : lines(file)) {
            recorded.add(JSON.readTree(l));
        }
        assertEquals(expected.size(), recorded.size());
        for (int i = 0; i < expected.size(); i++) {
            JsonNode o = recorded.get(i);
            assertEquals(expected.get(i)[0], o.get("path").asText(), o.toString());
            assertEquals(expected.get(i)[1], o.get("raw").asText(), o.toString());
            assertEquals(expected.get(i)[2], o.get("value").decimalValue().toPlainString(), o.toString());
            for (String f : new String[] {"ts", "unit", "seq", "stale", "tlv"}) {
                assertTrue(o.has(f), f + " in " + o);
            }
        }
        assertTrue(recorded.get(0).has("schema") && recorded.get(1).has("schema") && !recorded.get(2).has("schema"),
                "the declaration rides on a path's first line");

        // ---- replay as board1, mounted by a host; sub --json '/board1/#' on the host
        int port;
        try (DatagramSocket s = new DatagramSocket(0, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Link boardLink = LinkSpec.udpDial(1, "127.0.0.1:" + port, new LinkSettings(), SystemClock.INSTANCE);
        UdpLink clients = UdpLink.listen(2, new InetSocketAddress("127.0.0.1", 0), new UdpLinkConfig(), SystemClock.INSTANCE);
        String hostAddr = "127.0.0.1:" + clients.localAddress().getPort();
        HostService host = new HostService("host", List.of(new HostService.Board("board1", boardLink)), List.of(clients),
                -1, false, new PrintWriter(new StringWriter()));
        CompletableFuture<Cli.Run> replay = null;
        Thread replayThread = null;
        try {
            host.start();
            NodePath board1 = NodePath.of("/board1"); // the sub's slot at the host, created on demand
            int before = host.runtime().node().listenerCount(board1);
            CompletableFuture<Cli.Run> sub = CompletableFuture.supplyAsync(() -> Cli.run("sub", "--peer", hostAddr, "--json",
                    "/board1/#", "--count", Integer.toString(expected.size())));
            waitFor(() -> host.runtime().node().listenerCount(board1) > before || sub.isDone());
            CompletableFuture<Cli.Run> started = new CompletableFuture<>();
            replayThread = new Thread(() -> started.complete(Cli.run("replay", file.toString(), "--as", "board1", "--speed", "20",
                    "--udp", "127.0.0.1:" + port)), "replay");
            replayThread.start();
            replay = started;
            while (!sub.isDone()) {
                host.tick(); // the host subscribes upstream by itself once the board answers
                Thread.sleep(100);
            }
            Cli.Run s = sub.get();
            assertEquals(0, s.code(), s.all());
            String[] got = s.out().split("\n");
            assertEquals(expected.size(), got.length, s.out());
            for (int i = 0; i < expected.size(); i++) {
                JsonNode o = JSON.readTree(got[i]);
                assertEquals("/board1" + expected.get(i)[0], o.get("path").asText(), o.toString()); // whole paths
                assertEquals(expected.get(i)[1], o.get("raw").asText(), o.toString());
            }
        } finally {
            if (replayThread != null) {
                replayThread.interrupt(); // the board stops as on Ctrl-C
                replayThread.join(10_000);
            }
            host.close();
        }
        Cli.Run rr = replay.get(10, TimeUnit.SECONDS);
        assertEquals(0, rr.code(), rr.all());
        assertTrue(rr.out().startsWith("replaying 8 values from " + file + " as board1 at 20.0x"), rr.out());
    }

    @Test
    void aBadRecordingIsOneLineAndExit2() throws Exception {
        Path bad = dir.resolve("bad.jsonl");
        Files.writeString(bad, "{\"ts\":\"2026-12-01T04:00:00Z\",\"path\":\"/board1/temp\",\"raw\":1}\nnot json\n");
        Cli.Run r = Cli.run("replay", bad.toString(), "--as", "board1", "--udp", "127.0.0.1:0");
        assertEquals(2, r.code(), r.all());
        assertTrue(r.err().startsWith("replay: " + bad + ": line 2: "), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        Cli.Run none = Cli.run("replay", dir.resolve("absent.jsonl").toString(), "--as", "board1", "--udp", "127.0.0.1:0");
        assertEquals(2, none.code(), none.all());
        assertTrue(none.err().startsWith("replay: cannot read "), none.err());
    }

    private static List<String> lines(Path f) {
        try {
            return Files.exists(f) ? Files.readAllLines(f).stream().filter(l -> !l.isBlank()).toList() : List.of();
        } catch (java.io.IOException e) {
            return List.of();
        }
    }

    /** Waits (bounded by the class timeout) until {@code done} holds. */
    private static void waitFor(BooleanSupplier done) throws InterruptedException {
        while (!done.getAsBoolean()) {
            Thread.sleep(20);
        }
    }
}
