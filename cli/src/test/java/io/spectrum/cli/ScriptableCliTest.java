package io.spectrum.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spectrum.host.runtime.HostRuntime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 13 item 5: short flags, defaults from the environment and a config file, JSON lines and CSV, completion, man. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ScriptableCliTest {
    static final List<String> COMMON = List.of("ts", "path", "value", "unit", "raw", "seq", "stale");
    static final ObjectMapper JSON = new ObjectMapper();

    private HostRuntime board;
    private String addr;
    private ScheduledExecutorService ticker;
    private final AtomicLong temp = new AtomicLong(200);

    @BeforeEach
    void start() throws Exception {
        board = HonestFailuresTest.board(new InetSocketAddress("127.0.0.1", 0));
        addr = "127.0.0.1:" + HonestFailuresTest.port(board);
        board.write("/board/led", ClientCommandsTest.value(0, 1));
        ticker = Executors.newSingleThreadScheduledExecutor();
        ticker.scheduleAtFixedRate(() -> board.write("/board/temp", ClientCommandsTest.value(temp.incrementAndGet(), 4)),
                0, 50, TimeUnit.MILLISECONDS);
    }

    @AfterEach
    void stop() {
        ticker.shutdownNow();
        board.close();
    }

    static void assertCommonKeys(JsonNode o) {
        for (String k : COMMON) {
            assertTrue(o.has(k), k + " in " + o);
        }
    }

    @Test
    void peerComesFromTheEnvironmentOrTheConfigFile_theEnvironmentWins(@TempDir Path home) throws Exception {
        Cli.Run env = Cli.runWith(Defaults.of(Map.of("SPECTRUM_PEER", addr), home), "read", "/board/led");
        assertEquals(0, env.code(), env.all());
        assertEquals("/board/led = 0\n", env.out());

        Path config = home.resolve(".config/spectrum/config");
        Files.createDirectories(config.getParent());
        Files.writeString(config, "# spectrum defaults\npeer = " + addr + "\nformat=json\ntimeout=1500\n");
        Cli.Run file = Cli.runWith(Defaults.of(Map.of(), home), "read", "/board/led");
        assertEquals(0, file.code(), file.all());
        JsonNode o = JSON.readTree(file.out());
        assertEquals(0, o.get("value").asInt());

        Cli.Run envWins = Cli.runWith(Defaults.of(Map.of("SPECTRUM_FORMAT", "text"), home), "read", "/board/led");
        assertEquals("/board/led = 0\n", envWins.out());
        Cli.Run optionWins = Cli.runWith(Defaults.of(Map.of(), home), "read", "--format", "text", "/board/led");
        assertEquals("/board/led = 0\n", optionWins.out());

        Cli.Run none = Cli.run("read", "/board/led");
        assertEquals(2, none.code());
        assertEquals("spectrum read: no node to talk to: give --peer HOST:PORT, or set SPECTRUM_PEER or peer=HOST:PORT in "
                + "~/.config/spectrum/config\nTry 'spectrum read --help' for more.\n", none.err());
    }

    @Test
    void mosquittoShortFlags() {
        Cli.Run sub = Cli.run("sub", "--peer", addr, "-t", "/board/temp", "-C", "3", "-v");
        assertEquals(0, sub.code(), sub.all());
        assertEquals(3, sub.out().lines().count(), sub.out());
        assertTrue(sub.out().lines().allMatch(l -> l.matches("/board/temp = \\d+  \\(seq \\d+\\)")), sub.out());

        Cli.Run pub = Cli.run("write", "--peer", addr, "-t", "/board/led", "-m", "1", "--width", "1");
        assertEquals(0, pub.code(), pub.all());
        assertEquals("/board/led = 1\n", Cli.run("read", "--peer", addr, "-t", "/board/led").out());
        Cli.Run tap = Cli.run("tap", "--peer", addr, "-t", "/board/temp", "-C", "2");
        assertEquals(0, tap.code(), tap.all());
    }

    @Test
    void jsonLinesCarryTheCommonKeysOnEveryCommand() throws Exception {
        JsonNode read = JSON.readTree(Cli.run("read", "--peer", addr, "--json", "/board/led").out());
        assertCommonKeys(read);
        assertEquals("/board/led", read.get("path").asText());

        for (String line : Cli.run("sub", "--peer", addr, "--json", "/board/temp", "-C", "2").out().lines().toList()) {
            JsonNode o = JSON.readTree(line);
            assertCommonKeys(o);
            assertTrue(o.get("seq").asLong() > 0, line);
            assertFalse(o.get("stale").asBoolean(), line);
        }
        JsonNode write = JSON.readTree(Cli.run("write", "--peer", addr, "--json", "/board/led", "1", "--width", "1").out());
        assertCommonKeys(write);

        Cli.Run tap = Cli.run("tap", "--peer", addr, "--json", "/board/temp", "-C", "3");
        assertEquals(0, tap.code(), tap.all());
        assertEquals(3, tap.out().lines().count(), tap.out());
        for (String line : tap.out().lines().toList()) {
            JsonNode o = JSON.readTree(line);
            assertCommonKeys(o);
            assertTrue(o.get("dir").asText().matches("in|out"), line);
            assertTrue(o.get("frame").asText().contains("FWD") || o.has("error"), line);
        }

        JsonNode missing = JSON.readTree(Cli.run("read", "--peer", addr, "--json", "/board/nope").out());
        assertCommonKeys(missing);
        assertEquals("tr::path::not_found", missing.get("error").asText());

        Cli.Run usage = Cli.run("read", "--peer", addr, "--json", "no-slash");
        assertEquals(2, usage.code());
        JsonNode err = JSON.readTree(usage.err());
        assertEquals("usage", err.get("error").asText());
        assertEquals("bad path 'no-slash': tr::path::invalid: no-slash", err.get("message").asText());
    }

    @Test
    void lsJsonShowsHealthyParentsAsOkWithoutValue_andTextAgrees() throws Exception {
        JsonNode root = JSON.readTree(Cli.run("ls", "--peer", addr, "--json").out());
        assertTrue(root.get("ok").asBoolean(), root.toString());
        assertTrue(root.get("value").isNull(), root.toString());
        JsonNode named = JSON.readTree(Cli.run("ls", "--peer", addr, "--json", "/board").out());
        assertTrue(named.get("ok").asBoolean(), named.toString());
        assertFalse(named.has("code"), named.toString());
        assertEquals(0, named.get("subscribers").asInt());
        Cli.Run text = Cli.run("ls", "--peer", addr, "/board");
        assertEquals(0, text.code(), text.all());
        assertTrue(text.out().lines().anyMatch(l -> l.matches("/board\\s+-\\s+0")), text.out());
    }

    @Test
    void csvHasAHeaderAndOneRowPerValue() {
        Cli.Run read = Cli.run("read", "--peer", addr, "--format", "csv", "/board/led", "/board/nope");
        assertEquals(1, read.code(), read.all());
        List<String> rows = read.out().lines().toList();
        assertEquals("ts,path,value,unit,raw,seq,stale,error", rows.get(0));
        assertTrue(rows.get(1).matches("\\d{4}-\\d\\d-\\d\\dT[^,]+Z,/board/led,0,,0,\\d+,false,"), rows.get(1)); // a read is stamped
        assertTrue(rows.get(2).matches("[^,]+,/board/nope,,,,,,tr::path::not_found"), rows.get(2));

        Cli.Run sub = Cli.run("sub", "--peer", addr, "-F", "csv", "/board/temp", "-C", "2");
        List<String> s = sub.out().lines().toList();
        assertEquals(3, s.size(), sub.out());
        assertTrue(s.get(1).matches("[^,]+,/board/temp,\\d+,,\\d+,\\d+,false,"), s.get(1));

        Cli.Run ls = Cli.run("ls", "--peer", addr, "--format", "csv", "/board");
        assertEquals("ts,path,value,unit,raw,seq,stale,error", ls.out().lines().findFirst().orElse(""));
        assertTrue(ls.out().lines().anyMatch(l -> l.matches("[^,]+,/board/led,0,,0,,,")), ls.out());
    }

    @Test
    void completionAndManPageAreGeneratedFromTheCommands() {
        Cli.Run bash = Cli.run("completion", "bash");
        assertEquals(0, bash.code(), bash.all());
        assertTrue(bash.out().contains("complete -F _complete_spectrum") && bash.out().contains("--topic"), bash.out());
        Cli.Run man = Cli.run("man");
        assertEquals(0, man.code(), man.all());
        assertTrue(man.out().startsWith(".TH SPECTRUM 1 "), man.out());
        assertTrue(man.out().contains(".SS spectrum sub\n"), man.out());
        assertTrue(man.out().contains("\\fB\\-t, \\-\\-topic\\fR \\fIPATH\\fR"), man.out());
        assertTrue(man.out().contains(".B SPECTRUM_PEER"), man.out());
        assertEquals(2, Cli.run("completion", "fish").code());
    }
}
