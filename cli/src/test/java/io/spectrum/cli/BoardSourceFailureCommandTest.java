package io.spectrum.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spectrum.board.Board;
import io.spectrum.board.decl.BoardFileParser;
import io.spectrum.board.decl.BoardSetup;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.time.SystemClock;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A board file's source that cannot read is seen as such from a host's command line: read shows the
 * last value stale with the source's reason, and the next good read clears it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BoardSourceFailureCommandTest {
    @TempDir
    Path tmp;

    @Test
    void aFileSourceHoldingGarbageReadsStaleWithItsReasonUntilItReadsAgain() throws Exception {
        Path level = tmp.resolve("l");
        Files.writeString(level, "21.5 °C\n");
        var file = new BoardFileParser(-1).parse("b.yaml", """
                vertices:
                  - {path: /b/t, type: i16, unit: Cel, scale: 0.01, source: {kind: file, file: l, period: 100ms}}
                """, tmp);
        try (Board board = new Board("shed", NodeConfig.defaults(), BoardSetup.host(file, "shed", List.of()))) {
            UdpLink link = UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0), new UdpLinkConfig(), SystemClock.INSTANCE);
            board.attach(link);
            board.start();
            String addr = "127.0.0.1:" + link.localAddress().getPort();
            assertTrue(readUntil(addr, out -> out.startsWith("/b/t = 21.50 °C")).startsWith("/b/t = 21.50 °C"));

            Files.writeString(level, "garbage\n");
            String stale = readUntil(addr, out -> out.contains("stale"));
            assertTrue(stale.matches("/b/t = 21\\.50 °C  \\(seq \\d+, stale: file " + level.toString().replace(".", "\\.")
                    + ": not a number: \"garbage\"\\)\\s*"), stale);
            JsonNode j = new ObjectMapper().readTree(Cli.run("read", "--peer", addr, "--json", "/b/t").out());
            assertTrue(j.get("stale").asBoolean(), j.toString());
            assertEquals("file " + level + ": not a number: \"garbage\"", j.get("reason").asText());
            assertEquals(21.5, j.get("value").asDouble());

            Files.writeString(level, "22 Cel\n");
            String fresh = readUntil(addr, out -> out.startsWith("/b/t = 22.00 °C"));
            assertEquals("/b/t = 22.00 °C", fresh.trim(), "the good read's publish cleared the mark");
        }
    }

    /** {@code spectrum read} of /b/t until its output passes {@code done} (at most 200 reads). */
    private static String readUntil(String addr, Predicate<String> done) throws InterruptedException {
        String out = "";
        for (int i = 0; i < 200; i++) {
            out = Cli.run("read", "--peer", addr, "/b/t").out();
            if (done.test(out)) {
                return out;
            }
            Thread.sleep(50);
        }
        return out;
    }
}
