package io.spectrum.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spectrum.board.Board;
import io.spectrum.host.runtime.HostRuntime;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.WireError;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static io.spectrum.cli.ClientCommandsTest.name;
import static io.spectrum.cli.ClientCommandsTest.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** read / write / ls / sub on a node whose vertices are declared as the demo board declares them (issue 9). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DeclaredValuesCommandTest {
    private HostRuntime board;
    private String addr;
    private Runnable closing = () -> { };

    @BeforeEach
    void startBoard() throws Exception {
        board = new HostRuntime("board", new NarrowNode(NodeConfig.defaults()));
        Board.declare(board.node());
        assertEquals(WireError.OK, board.node().declare(NodePath.of("/level"),
                VertexSchema.value(1, false).writable().description("a u8 without a range").build()));
        UdpLink link = UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0), new UdpLinkConfig(), SystemClock.INSTANCE);
        board.attach(link);
        board.start();
        addr = "127.0.0.1:" + link.localAddress().getPort();
        assertEquals(WireError.OK, board.write("/temp", value(2328, 2)));
        assertEquals(WireError.OK, board.write("/humidity", value(483, 2)));
        assertEquals(WireError.OK, board.write("/led", value(0, 1)));
        assertEquals(WireError.OK, board.write("/level", value(0, 1)));
        assertEquals(WireError.OK, board.write("/name", name("kitchen")));
    }

    @AfterEach
    void stop() {
        closing.run();
        board.close();
    }

    @Test
    void readShowsTheValueInItsUnit() throws Exception {
        Cli.Run r = Cli.run("read", "--peer", addr, "/temp", "/humidity", "/name");
        assertEquals(0, r.code(), r.all());
        assertEquals("/temp = 23.28 °C\n/humidity = 48.3 %\n/name = kitchen\n", r.out());

        JsonNode j = new ObjectMapper().readTree(Cli.run("read", "--peer", addr, "--json", "/temp").out());
        assertEquals("/temp", j.get("path").asText());
        assertTrue(j.get("ok").asBoolean());
        assertTrue(j.get("value").isNumber(), j.toString());
        assertEquals("23.28", j.get("value").decimalValue().toPlainString());
        assertEquals("°C", j.get("unit").asText());
        assertEquals("Cel", j.get("ucum").asText());
        assertEquals(2328, j.get("raw").asLong());
        assertEquals(23.28, j.get("number").asDouble());
        assertEquals("23.28 °C", j.get("text").asText());
    }

    @Test
    void unsignedIsUnsigned() throws Exception {
        Cli.Run w = Cli.run("write", "--peer", addr, "/level", "255");
        assertEquals(0, w.code(), w.all());
        assertEquals("/level <- 255: ok\n", w.out());
        assertEquals("/level = 255\n", Cli.run("read", "--peer", addr, "/level").out());
        JsonNode j = new ObjectMapper().readTree(Cli.run("read", "--peer", addr, "--json", "/level").out());
        assertEquals(255, j.get("raw").asLong());
        assertEquals(255, j.get("value").asLong());
    }

    @Test
    void writeParsesByTheDeclarationWithoutWidth() throws Exception {
        Cli.Run w = Cli.run("write", "--peer", addr, "/led", "1");
        assertEquals(0, w.code(), w.all());
        assertEquals("/led <- 1: ok\n", w.out());
        assertEquals("/led = 1\n", Cli.run("read", "--peer", addr, "/led").out());
    }

    @Test
    void whatTheDeclarationDoesNotTakeIsRefusedBeforeSendingWithOneLine() throws Exception {
        long seq = board.node().sequence(NodePath.of("/led"));
        assertRefusedLocally("/led: 3.5 is not a whole number; the vertex holds a number from 0 to 1\n", "/led", "3.5");
        assertRefusedLocally("/led: 'on' is not a number; the vertex holds a number from 0 to 1\n", "/led", "on");
        assertRefusedLocally("/led: 2 is out of range; the vertex holds a number from 0 to 1\n", "/led", "2");
        assertRefusedLocally("/led: 12345678901234567890 is out of range; the vertex holds a number from 0 to 1\n",
                "/led", "12345678901234567890");
        assertRefusedLocally("/temp: 400 is out of range; the vertex holds a number from -327.68 to 327.67 °C in steps of 0.01\n",
                "/temp", "400");
        assertRefusedLocally("/temp: 23.555 is finer than the vertex's steps; it holds a number from -327.68 to 327.67 °C "
                + "in steps of 0.01\n", "/temp", "23.555");
        assertRefusedLocally("/level: 256 is out of range; the vertex holds a number from 0 to 255\n", "/level", "256");
        assertEquals(seq, board.node().sequence(NodePath.of("/led")), "nothing was written");
        assertEquals("/led = 0\n", Cli.run("read", "--peer", addr, "/led").out());
    }

    private void assertRefusedLocally(String line, String path, String input) {
        Cli.Run r = Cli.run("write", "--peer", addr, path, input);
        assertEquals(2, r.code(), r.all());
        assertEquals("", r.out());
        assertEquals(line, r.err());
    }

    @Test
    void aReadOnlyVertexIsRefusedByTheBoard() {
        Cli.Run r = Cli.run("write", "--peer", addr, "/temp", "23.5");
        assertEquals(1, r.code(), r.all());
        assertEquals("/temp <- 23.50 °C: refused: tr::access::denied (the vertex is read-only)\n", r.out());
        assertEquals("/temp = 23.28 °C\n", Cli.run("read", "--peer", addr, "/temp").out());
        // an expert's raw write that breaks the declaration: the board refuses it with the type mismatch
        Cli.Run wide = Cli.run("write", "--peer", addr, "/led", "1", "--width", "4");
        assertEquals(1, wide.code(), wide.all());
        assertEquals("/led <- 1: refused: tr::schema::type_mismatch (the vertex does not hold this; "
                + "see spectrum read /led:settings.app)\n", wide.out());
    }

    @Test
    void fieldsAreAddressableAndPrintedDecoded() throws Exception {
        Cli.Run app = Cli.run("read", "--peer", addr, "/temp:settings.app");
        assertEquals(0, app.code(), app.all());
        assertEquals("/temp:settings.app = SETTINGS\n"
                + "  type = VALUE\n  width = 2\n  signed = 1\n  unit = Cel\n  scale = 0.01\n  rights = 5\n"
                + "  description = board temperature\n  (declaration: VALUE i16 Cel x0.01 r-s)\n", app.out());
        assertEquals("/temp:settings.app.unit = Cel\n", Cli.run("read", "--peer", addr, "/temp:settings.app.unit").out());
        Cli.Run schema = Cli.run("read", "--peer", addr, "/temp:schema");
        assertEquals(0, schema.code(), schema.all());
        assertTrue(schema.out().startsWith("/temp:schema = POINT\n  temp\n  SETTINGS {}\n  app\n  SETTINGS\n    type = VALUE\n"),
                schema.out());
        JsonNode j = new ObjectMapper().readTree(Cli.run("read", "--peer", addr, "--json", "/led:settings.app").out());
        assertEquals("VALUE", j.get("value").get("type").asText());
        assertEquals(1, j.get("value").get("max").asInt());
        assertEquals(7, j.get("value").get("rights").asInt());

        Cli.Run missing = Cli.run("read", "--peer", addr, "/temp:settings.app.nope");
        assertEquals(1, missing.code());
        assertEquals("/temp:settings.app.nope = refused: tr::schema::not_found\n", missing.out());
        assertEquals(2, Cli.run("read", "--peer", addr, "/temp:settings..app").code(), "a malformed field is a usage error");
    }

    @Test
    void aPlainV1ReadOfSettingsAppAnswersThePinnedVector() throws Exception {
        byte[] vector = io.spectrum.vectors.VectorLoader.loadClasspath(io.spectrum.vectors.VectorLoader.SPECTRUM_V1).stream()
                .filter(v -> v.id().equals("settings/declaration-temp")).findFirst().orElseThrow().bytes();
        UdpLink link = UdpLink.dial(9, UdpLink.parseHostPort(addr), new UdpLinkConfig(), SystemClock.INSTANCE);
        try (io.spectrum.client.PeerClient c = new io.spectrum.client.PeerClient(link, 0, java.time.Duration.ofSeconds(2))) {
            io.spectrum.client.Reply r = c.read("/temp", io.spectrum.client.Requests.settingsApp());
            assertTrue(r.ok(), r.toString());
            org.junit.jupiter.api.Assertions.assertArrayEquals(vector, r.value());
        }
    }

    /**
     * A declared vertex whose source failed before it ever read (the board marks it stale with the
     * reason, no value to keep): {@code read} says "no value yet" and why, and {@code sub --json} shows
     * it stale with the reason, not a value.
     */
    @Test
    void aVertexWithoutAValueMarkedStale_isNoValueYetWithTheReason_inReadAndSub() throws Exception {
        NodePath failing = NodePath.of("/board/failing");
        String why = "i2c 1/0x48 reg 0: read 0 of 2 bytes";
        board.onNodeThread(() -> {
            assertEquals(WireError.OK, board.node().declare(failing, VertexSchema.value(2, true).unit("Cel").scale(0.01).build()));
            assertEquals(WireError.OK, board.node().markStale(failing, why));
            return null;
        });
        Cli.Run read = Cli.run("read", "--peer", addr, "/board/failing");
        assertEquals(1, read.code(), read.all());
        assertEquals("/board/failing = no value yet (stale: " + why + "; tr::path::not_found)", read.out().trim());
        JsonNode j = new ObjectMapper().readTree(Cli.run("read", "--peer", addr, "--json", "/board/failing").out());
        assertEquals("no value yet: " + why, j.get("reason").asText(), j.toString());
        assertTrue(j.get("stale").asBoolean(), j.toString());

        Cli.Run sub = Cli.run("sub", "--peer", addr, "/board/failing", "--count", "1", "--json");
        JsonNode d = new ObjectMapper().readTree(sub.out().lines().findFirst().orElseThrow());
        assertTrue(d.get("stale").asBoolean(), sub.all());
        assertEquals(why, d.get("reason").asText(), sub.all());
        assertTrue(d.get("value").isNull(), "no value is invented: " + sub.all());
    }

    @Test
    void aDeclaredVertexWithoutAValueIsNoValueYetInReadAndLsAlike() throws Exception {
        assertEquals(WireError.OK, board.node().declare(NodePath.of("/never"),
                VertexSchema.value(2, true).unit("Cel").scale(0.01).description("a sensor that never read").build()));
        Cli.Run read = Cli.run("read", "--peer", addr, "/never");
        assertEquals(1, read.code(), read.all());
        assertEquals("/never = no value yet (declared, never published; tr::path::not_found)", read.out().trim());
        JsonNode j = new ObjectMapper().readTree(Cli.run("read", "--peer", addr, "--json", "/never").out());
        assertEquals("no value yet", j.get("reason").asText(), j.toString());
        assertEquals("tr::path::not_found", j.get("error").asText(), j.toString());
        assertTrue(!j.get("ok").asBoolean(), j.toString());

        Cli.Run ls = Cli.run("ls", "--peer", addr);
        assertEquals(0, ls.code(), ls.all());
        assertTrue(ls.out().lines().anyMatch(l -> l.matches("  never\\s+no value yet\\s+0")), ls.out());
        assertTrue(ls.out().lines().anyMatch(l -> l.matches("/\\s+-\\s+0")), "an undeclared parent: " + ls.out());
        JsonNode o = new ObjectMapper().readTree(Cli.run("ls", "--peer", addr, "--json", "/never").out());
        assertEquals("no value yet", o.get("reason").asText(), o.toString());
        assertEquals("tr::path::not_found", o.get("error").asText(), o.toString());
        assertEquals(j.get("ok"), o.get("ok"), "read and ls agree: " + j + " / " + o);

        Cli.Run missing = Cli.run("read", "--peer", addr, "/nope");
        assertEquals("/nope = refused: tr::path::not_found", missing.out().trim(), "an undeclared path is not found");
    }

    @Test
    void lsAndSubShowTheUnit() throws Exception {
        Cli.Run ls = Cli.run("ls", "--peer", addr);
        assertEquals(0, ls.code(), ls.all());
        assertTrue(ls.out().lines().anyMatch(l -> l.matches("  temp\\s+23\\.28 °C\\s+0")), ls.out());
        assertTrue(ls.out().lines().anyMatch(l -> l.matches("  humidity\\s+48\\.3 %\\s+0")), ls.out());
        JsonNode tree = new ObjectMapper().readTree(Cli.run("ls", "--peer", addr, "--json", "/temp").out());
        assertEquals("°C", tree.get("unit").asText());

        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
        closing = ticker::shutdownNow;
        ticker.scheduleAtFixedRate(() -> {
            board.write("/temp", value(2328, 2));
            board.write("/humidity", value(483, 2));
        }, 0, 50, TimeUnit.MILLISECONDS);
        Cli.Run sub = Cli.run("sub", "--peer", addr, "/temp", "--count", "1");
        assertEquals(0, sub.code(), sub.all());
        assertTrue(sub.out().matches("/temp = 23\\.28 °C  \\(seq \\d+\\)\n"), sub.out());
        JsonNode o = new ObjectMapper().readTree(Cli.run("sub", "--peer", addr, "--json", "/humidity", "--count", "1").out());
        assertEquals("%", o.get("unit").asText());
        assertEquals(483, o.get("raw").asLong());
        assertEquals(48.3, o.get("value").asDouble());
    }

    @Test
    void subOfAParentNamesTheChildThatChanged_andHashIsASubtree() throws Exception {
        ScheduledExecutorService writer = Executors.newSingleThreadScheduledExecutor();
        closing = writer::shutdownNow;
        long[] n = {0};
        writer.scheduleAtFixedRate(() -> {
            n[0]++;
            board.write("/temp", value(2300 + n[0] % 2, 2));
            board.write("/humidity", value(483, 2));
        }, 0, 50, TimeUnit.MILLISECONDS);
        for (String pattern : new String[] {"/#", "/"}) {
            Cli.Run sub = Cli.run("sub", "--peer", addr, pattern, "--count", "12");
            assertEquals(0, sub.code(), sub.all());
            String[] lines = sub.out().split("\n");
            assertEquals(12, lines.length, sub.out());
            for (String l : lines) {
                assertTrue(l.matches("/\\w+ = .+  \\(seq \\d+\\)"), l);
            }
            // it starts with every value retained below (docs/extensions.md "Subtree replay"), then follows the writes
            for (String retained : new String[] {"/led = ", "/level = ", "/name = "}) {
                assertTrue(sub.out().contains(retained), retained + " replayed: " + sub.out());
            }
            assertTrue(sub.out().contains("/temp = 23.0") && sub.out().contains("/humidity = 48.3 %"), sub.out());
        }
        JsonNode o = new ObjectMapper().readTree(Cli.run("sub", "--peer", addr, "--json", "/#", "--count", "1").out());
        assertTrue(o.get("path").asText().matches("/\\w+"), o.toString());
    }

    @Test
    void wildcardsOtherThanATrailingHashAreRefusedWithOneLine() {
        Cli.Run plus = Cli.run("sub", "--peer", addr, "/+/x", "--count", "1");
        assertEquals(2, plus.code(), plus.all());
        assertTrue(plus.err().startsWith("spectrum sub: bad path '/+/x': '+' (one level) is not supported; subscribe to the parent with '/#'"),
                plus.err());
        assertEquals(List.of("Try 'spectrum sub --help' for more."), plus.err().lines().skip(1).toList(), "one line and the hint");
        Cli.Run mid = Cli.run("sub", "--peer", addr, "/#/temp", "--count", "1");
        assertEquals(2, mid.code(), mid.all());
        assertTrue(mid.err().startsWith("spectrum sub: bad path '/#/temp': '#' only as the last segment"), mid.err());
        assertEquals(2, mid.err().lines().count(), mid.err());
    }
}
