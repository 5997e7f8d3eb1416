package io.spectrum.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spectrum.host.runtime.HostRuntime;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ls / read / write / sub / tap against a node served over UDP in this JVM. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClientCommandsTest {
    private HostRuntime board;
    private String addr;
    private ScheduledExecutorService ticker;
    private final AtomicLong temp = new AtomicLong(200);

    static byte[] value(long v, int width) {
        byte[] b = new byte[16];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.value(v, width);
        return Arrays.copyOf(b, w.length());
    }

    static byte[] name(String s) {
        byte[] b = new byte[64];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.leaf(TlvType.NAME, s.getBytes(StandardCharsets.UTF_8));
        return Arrays.copyOf(b, w.length());
    }

    @BeforeEach
    void startBoard() throws Exception {
        board = new HostRuntime("board", new NarrowNode(HostRuntime.HOST_CONFIG)); // undeclared test vertices
        UdpLink link = UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0), new UdpLinkConfig(), SystemClock.INSTANCE);
        board.attach(link);
        board.start();
        addr = "127.0.0.1:" + link.localAddress().getPort();
        board.write("/temp", value(temp.get(), 4));
        board.write("/name", name("kitchen"));
        board.write("/led", value(0, 1));
        ticker = Executors.newSingleThreadScheduledExecutor();
    }

    @AfterEach
    void stop() {
        ticker.shutdownNow();
        board.close();
    }

    private void publishEvery50ms() {
        ticker.scheduleAtFixedRate(() -> board.write("/temp", value(temp.incrementAndGet(), 4)), 0, 50, TimeUnit.MILLISECONDS);
    }

    @Test
    void readAndWrite() throws Exception {
        Cli.Run r = Cli.run("read", "--peer", addr, "/temp", "/name");
        assertEquals(0, r.code(), r.all());
        assertEquals("/temp = 200\n/name = kitchen\n", r.out());

        Cli.Run w = Cli.run("write", "--peer", addr, "/led", "1", "--width", "1");
        assertEquals(0, w.code(), w.all());
        assertTrue(w.out().contains("/led <- 1: ok"), w.out());
        assertEquals("/led = 1\n", Cli.run("read", "--peer", addr, "/led").out());

        JsonNode j = new ObjectMapper().readTree(Cli.run("read", "--peer", addr, "--json", "/temp").out());
        assertEquals(200.0, j.get("number").asDouble());
        assertTrue(j.get("ok").asBoolean());

        Cli.Run missing = Cli.run("read", "--peer", addr, "/nope");
        assertEquals(1, missing.code());
        assertTrue(missing.out().contains("refused: tr::path::not_found"), missing.out());
        Cli.Run remoteCreate = Cli.run("write", "--peer", addr, "/new", "5");
        assertEquals(1, remoteCreate.code(), "a remote write never creates a path");
    }

    @Test
    void usageErrorsSayWhatToDo() throws Exception {
        Cli.Run badPeer = Cli.run("read", "--peer", "nohost", "/a");
        assertEquals(2, badPeer.code());
        assertTrue(badPeer.err().contains("HOST:PORT"), badPeer.err());
        assertEquals(2, Cli.run("read", "/a").code(), "--peer is required");
        assertEquals(2, Cli.run("write", "--peer", addr, "/led", "300", "--width", "1").code());
        assertEquals(2, Cli.run("read", "--peer", addr, "no-slash").code());

        int silent;
        try (DatagramSocket s = new DatagramSocket(0, java.net.InetAddress.getLoopbackAddress())) {
            silent = s.getLocalPort(); // bound but never answers
            Cli.Run timeout = Cli.run("read", "--peer", "127.0.0.1:" + silent, "--timeout", "300", "/a");
            assertEquals(1, timeout.code());
            assertTrue(timeout.out().contains("tr::flow::timeout") && timeout.out().contains("is a board or host running"), timeout.out());
        }
    }

    @Test
    void lsShowsValuesAndSubscriberCounts() throws Exception {
        // a remote subscriber on /temp (another client over UDP)
        UdpLink other = UdpLink.dial(9, UdpLink.parseHostPort(addr), new UdpLinkConfig(), SystemClock.INSTANCE);
        try (io.spectrum.client.PeerClient c = new io.spectrum.client.PeerClient(other, 0, java.time.Duration.ofSeconds(2))) {
            assertTrue(c.subscribe("/temp", "/other/temp", -1, false).ok());
            Cli.Run ls = Cli.run("ls", "--peer", addr, "/temp", "/led");
            assertEquals(0, ls.code(), ls.all());
            assertTrue(ls.out().lines().anyMatch(l -> l.matches("/temp\\s+200\\s+1")), ls.out());
            assertTrue(ls.out().lines().anyMatch(l -> l.matches("/led\\s+0\\s+0")), ls.out());

            int slot = -1;
            for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10); slot < 0 && System.nanoTime() < deadline; ) {
                slot = board.snapshot().vertices().stream().filter(v -> v.path().equals("/temp")).findFirst()
                        .flatMap(v -> v.subscribers().stream().filter(x -> x.holder().equals("remote peer")).findFirst())
                        .map(x -> x.slot()).orElse(-1);
                Thread.sleep(20);
            }
            assertEquals(WireError.OK, board.suspend("/temp", slot));
            Cli.Run after = Cli.run("ls", "--peer", addr, "--json", "/temp");
            JsonNode o = new ObjectMapper().readTree(after.out());
            assertEquals(1, o.get("subscribers").asInt());
            assertEquals(1, o.get("suspended").asInt());
        }
    }

    @Test
    void subFollowsLiveValuesWithSequence() throws Exception {
        publishEvery50ms();
        Cli.Run sub = Cli.run("sub", "--peer", addr, "/temp", "--count", "4");
        assertEquals(0, sub.code(), sub.all());
        List<String> lines = sub.out().lines().toList();
        assertEquals(4, lines.size(), sub.out());
        for (String l : lines) {
            assertTrue(l.matches("/temp = \\d+  \\(seq \\d+\\)"), l);
        }
        long first = Long.parseLong(lines.get(0).replaceAll(".*seq (\\d+).*", "$1"));
        long last = Long.parseLong(lines.get(3).replaceAll(".*seq (\\d+).*", "$1"));
        assertTrue(last > first, "sequence numbers advance: " + lines);
        assertTrue(sub.err().contains("subscribing to /temp"), "progress is shown");

        Cli.Run json = Cli.run("sub", "--peer", addr, "/temp", "--count", "2", "--json");
        JsonNode o = new ObjectMapper().readTree(json.out().lines().findFirst().orElseThrow());
        assertEquals("/temp", o.get("path").asText());
        assertTrue(o.get("seq").asLong() > 0);
        assertEquals(false, o.get("stale").asBoolean());
    }

    @Test
    void subOfAPathThatDoesNotExist_saysSoAndExits1_unlessWaitFollowsItUntilItAppears() throws Exception {
        Cli.Run missing = Cli.run("sub", "--peer", addr, "/nothing", "--count", "1");
        assertEquals(1, missing.code(), missing.all());
        assertTrue(missing.err().contains("/nothing: no such vertex on " + addr), missing.err());
        assertEquals("", missing.out());
        Cli.Run json = Cli.run("sub", "--peer", addr, "/nothing", "--count", "1", "--json");
        assertEquals(1, json.code(), json.all());
        assertEquals("not_found", new ObjectMapper().readTree(json.out()).get("error").asText(), json.out());
        // inner vertices exist without a value of their own; a subtree pattern is checked at its vertex
        Cli.Run inner = Cli.run("sub", "--peer", addr, "/#", "--count", "1", "-W", "1");
        assertEquals(0, inner.code(), inner.all());

        java.util.concurrent.ScheduledExecutorService later = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        try {
            later.schedule(() -> board.write("/later", value(7, 1)), 1500, java.util.concurrent.TimeUnit.MILLISECONDS);
            Cli.Run waited = Cli.run("sub", "--peer", addr, "/later", "--count", "1", "--wait", "-W", "20");
            assertEquals(0, waited.code(), waited.all());
            assertEquals("", "" + waited.err().lines().filter(l -> l.contains("refused")).findFirst().orElse(""), waited.err());
            assertTrue(waited.err().contains("following it until it appears (--wait)"), waited.err());
            assertEquals("/later = 7  (seq 1)\n", waited.out());
        } finally {
            later.shutdownNow();
        }
    }

    @Test
    void aStaleValue_isShownStaleWithItsReason_byReadAndSub_asTextAndJson() throws Exception {
        String why = "i2c 1/0x48 reg 0: read 0 of 2 bytes";
        assertEquals(WireError.OK, (int) board.onNodeThread(
                () -> board.node().markStale(io.spectrum.node.api.NodePath.of("/temp"), why)));

        assertEquals("/temp = 200  (seq 1, stale: " + why + ")\n", Cli.run("read", "--peer", addr, "/temp").out());
        JsonNode r = new ObjectMapper().readTree(Cli.run("read", "--peer", addr, "--json", "/temp").out());
        assertEquals(200.0, r.get("number").asDouble(), "the value is kept");
        assertEquals(1, r.get("seq").asLong());
        assertTrue(r.get("stale").asBoolean());
        assertEquals(why, r.get("reason").asText());
        JsonNode fresh = new ObjectMapper().readTree(Cli.run("read", "--peer", addr, "--json", "/name").out());
        assertEquals(false, fresh.get("stale").asBoolean());
        assertTrue(fresh.get("reason") == null, "a current value has no reason: " + fresh);
        assertEquals("/name = kitchen\n", Cli.run("read", "--peer", addr, "/name").out(), "fresh: as before");

        Cli.Run sub = Cli.run("sub", "--peer", addr, "/temp", "--count", "1");
        assertEquals("/temp = 200  (seq 1, stale: " + why + ")\n", sub.out(), sub.all());
        JsonNode d = new ObjectMapper().readTree(Cli.run("sub", "--peer", addr, "/temp", "--count", "1", "--json").out());
        assertTrue(d.get("stale").asBoolean());
        assertEquals(why, d.get("reason").asText());
    }

    @Test
    void tapPrintsDecodedFramesBothWays() throws Exception {
        publishEvery50ms();
        Cli.Run tap = Cli.run("tap", "--peer", addr, "/temp", "--count", "4");
        assertEquals(0, tap.code(), tap.all());
        assertTrue(tap.out().contains("-> " + addr), tap.out());
        assertTrue(tap.out().contains("<- " + addr), tap.out());
        assertTrue(tap.out().contains("FWD"), tap.out());
        assertTrue(tap.out().contains("subscribers"), "the decoded append shows its FIELD: " + tap.out());
    }
}
