package io.spectrum.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spectrum.client.PeerClient;
import io.spectrum.host.runtime.HostRuntime;
import io.spectrum.host.runtime.HostService;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.time.SystemClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.spectrum.cli.ClientCommandsTest.name;
import static io.spectrum.cli.ClientCommandsTest.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code spectrum ls} walking a live node's tree through :children[] reads, no paths named. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LsTreeCommandTest {
    private HostRuntime board;
    private String addr;

    @BeforeEach
    void startBoard() throws Exception {
        board = new HostRuntime("board", new NarrowNode(HostRuntime.HOST_CONFIG)); // undeclared test vertices
        UdpLink link = UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0), new UdpLinkConfig(), SystemClock.INSTANCE);
        board.attach(link);
        board.start();
        addr = "127.0.0.1:" + link.localAddress().getPort();
        board.write("/board/temp", value(200, 4));
        board.write("/board/name", name("kitchen"));
        board.write("/board/led", value(0, 1));
        board.write("/board/deep/a/b", value(7, 1));
    }

    @AfterEach
    void stop() {
        board.close();
    }

    @Test
    void withNoPath_theWholeTreeIsListedIndented_withValuesAndSubscriberCounts() throws Exception {
        UdpLink other = UdpLink.dial(9, UdpLink.parseHostPort(addr), new UdpLinkConfig(), SystemClock.INSTANCE);
        try (PeerClient c = new PeerClient(other, 0, Duration.ofSeconds(2))) {
            assertTrue(c.subscribe("/board/temp", "/other/temp", -1, false).ok());
            Cli.Run ls = Cli.run("ls", "--peer", addr);
            assertEquals(0, ls.code(), ls.all());
            List<String> rows = ls.out().lines().map(String::stripTrailing).toList();
            String tree = String.join("\n", rows);
            // byte order of names; values and counts in the same columns as for named paths
            assertTrue(tree.matches("(?s)PATH\\s+VALUE\\s+SUBSCRIBERS\n"
                    + "/\\s+-\\s+0\n"
                    + "  board\\s+-\\s+0\n"
                    + "    deep\\s+-\\s+0\n"
                    + "      a\\s+-\\s+0\n"
                    + "        b\\s+7\\s+0\n"
                    + "    led\\s+0\\s+0\n"
                    + "    name\\s+kitchen\\s+0\n"
                    + "    temp\\s+200\\s+1"), ls.out());
            assertFalse(ls.out().contains("$"), "node-internal $ vertices are not listed to a client: " + ls.out());
        }
    }

    @Test
    void aNamedPathKeepsItsRow_andItsSubtreeFollows_depthBoundsTheWalk() throws Exception {
        Cli.Run ls = Cli.run("ls", "--peer", addr, "--depth", "1", "/board/deep", "/board/temp");
        assertEquals(0, ls.code(), ls.all());
        List<String> rows = ls.out().lines().map(String::stripTrailing).toList();
        assertTrue(rows.get(1).matches("/board/deep\\s+-\\s+0"), "a named parent is healthy, with no value of its own: " + rows);
        assertTrue(rows.get(2).matches("  a\\s+-\\s+0"), rows.toString());
        assertEquals("    ... 1 more below (raise --depth)", rows.get(3));
        assertTrue(rows.get(4).matches("/board/temp\\s+200\\s+0"), rows.toString());
        assertEquals(5, rows.size(), rows.toString());

        Cli.Run flat = Cli.run("ls", "--peer", addr, "--depth", "0", "/board/deep");
        assertEquals(2, flat.out().lines().count(), "--depth 0 lists only the named paths: " + flat.out());
        assertEquals(2, Cli.run("ls", "--peer", addr, "--depth", "-1").code());
        Cli.Run missing = Cli.run("ls", "--peer", addr, "/board/nope");
        assertEquals(1, missing.code(), missing.all());
        assertTrue(missing.out().contains("refused: tr::path::not_found"), missing.out());
    }

    @Test
    void json_isOneNestedObjectPerStart() throws Exception {
        Cli.Run ls = Cli.run("ls", "--peer", addr, "--json", "/board");
        assertEquals(0, ls.code(), ls.all());
        assertEquals(1, ls.out().lines().count(), ls.out());
        JsonNode o = new ObjectMapper().readTree(ls.out());
        assertEquals("/board", o.get("path").asText());
        JsonNode kids = o.get("children");
        assertEquals(List.of("/board/deep", "/board/led", "/board/name", "/board/temp"),
                List.of(kids.get(0).get("path").asText(), kids.get(1).get("path").asText(),
                        kids.get(2).get("path").asText(), kids.get(3).get("path").asText()));
        assertEquals(200.0, kids.get(3).get("number").asDouble());
        assertEquals(0, kids.get(3).get("subscribers").asInt());
        assertEquals("/board/deep/a/b", kids.get(0).get("children").get(0).get("children").get(0).get("path").asText());
        assertEquals(0, kids.get(0).get("children").get(0).get("children").get(0).get("children").size());
    }

    @Test
    void againstAHost_theMountedBoardsWholeTreeShowsUnderItsName() throws Exception {
        UdpLink toBoard = UdpLink.dial(2, UdpLink.parseHostPort(addr), new UdpLinkConfig(), SystemClock.INSTANCE);
        UdpLink clients = UdpLink.listen(3, new InetSocketAddress("127.0.0.1", 0), new UdpLinkConfig(), SystemClock.INSTANCE);
        String hostAddr = "127.0.0.1:" + clients.localAddress().getPort();
        try (HostService host = new HostService("host", List.of(new HostService.Board("board1", toBoard)), List.of(clients),
                -1, false, new PrintWriter(new StringWriter()))) {
            host.start();
            String temp = null;
            for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20); temp == null && System.nanoTime() < deadline; ) {
                Cli.Run r = Cli.run("read", "--peer", hostAddr, "--timeout", "500", "/board1/board/temp");
                if (r.code() == 0) {
                    temp = r.out();
                } else {
                    Thread.sleep(100); // the board's link comes up
                }
            }
            assertEquals("/board1/board/temp = 200\n", temp, "a board path read through the host, whole");
            Cli.Run ls = Cli.run("ls", "--peer", hostAddr);
            assertEquals(0, ls.code(), ls.all());
            List<String> rows = ls.out().lines().map(String::stripTrailing).toList();
            int b1 = rows.indexOf(rows.stream().filter(l -> l.matches("  board1\\s+-\\s+0")).findFirst().orElse("?"));
            assertTrue(b1 > 0, ls.out());
            assertTrue(rows.get(b1 + 1).matches("    board\\s+-\\s+0"), ls.out());
            assertTrue(rows.stream().anyMatch(l -> l.matches("          b\\s+7\\s+0")), "every level of the board's tree: " + ls.out());
            assertTrue(rows.stream().anyMatch(l -> l.matches("      temp\\s+200\\s+0")), ls.out());
            assertTrue(rows.stream().anyMatch(l -> l.matches("      led\\s+0\\s+0")), ls.out());
        }
    }

    @Test
    void deniedSubtrees_arePrunedFromTheWalk_andANamedOneIsRefused() throws Exception {
        HostRuntime guarded = new HostRuntime("guarded", new NarrowNode(NodeConfig.builder().accessPolicy(new io.spectrum.node.api.AccessPolicy() {
            @Override
            public boolean canRead(byte[] k, int o, int l, int linkId, int peer) {
                return !new String(k, o, l, java.nio.charset.StandardCharsets.ISO_8859_1).contains("secret");
            }
        }).build()));
        UdpLink link = UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0), new UdpLinkConfig(), SystemClock.INSTANCE);
        guarded.attach(link);
        guarded.start();
        try {
            String at = "127.0.0.1:" + link.localAddress().getPort();
            guarded.write("/open/x", value(1, 1));
            guarded.write("/secret/y", value(2, 1));
            Cli.Run ls = Cli.run("ls", "--peer", at);
            assertEquals(0, ls.code(), ls.all());
            assertTrue(ls.out().contains("open") && !ls.out().contains("secret"), ls.out());
            Cli.Run named = Cli.run("ls", "--peer", at, "/secret");
            assertEquals(1, named.code(), named.all());
            assertTrue(named.out().contains("refused: tr::access::denied"), named.out());
            assertTrue(named.out().contains("(children: refused: tr::access::denied)"), named.out());
        } finally {
            guarded.close();
        }
    }
}
