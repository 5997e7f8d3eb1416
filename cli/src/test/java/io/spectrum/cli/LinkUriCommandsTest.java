package io.spectrum.cli;

import io.spectrum.host.runtime.HostRuntime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Links named by URI on the command line (docs/links.md, "Links by URI"): they reach the node, and a wrong one is exit 2 with one line. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class LinkUriCommandsTest {
    static final String SCHEMES = "udp://127.0.0.1:7700, dtls://127.0.0.1:7700?keys=DIR&name=NAME, tcp://127.0.0.1:7702, "
            + "unix:///run/spectrum/bus.sock, serial:///dev/ttyAMA0?baud=115200";

    @Test
    void aUdpUriReachesTheNodeAsTheShorthandDoes() throws Exception {
        HostRuntime b = HonestFailuresTest.board(new InetSocketAddress("127.0.0.1", 0));
        try {
            Cli.Run r = Cli.run("read", "--peer", "udp://127.0.0.1:" + HonestFailuresTest.port(b), "/board/temp");
            assertEquals(0, r.code(), r.all());
            assertEquals("/board/temp = 200\n", r.out());
        } finally {
            b.close();
        }
    }

    @Test
    void aWrongUriIsExit2WithOneLineSayingWhatToWrite() {
        Cli.Run read = Cli.run("read", "--peer", "mqtt://broker:1883", "/a");
        assertEquals(2, read.code(), read.all());
        assertEquals("spectrum read: --peer mqtt://broker:1883: no link is called mqtt://; write one of " + SCHEMES
                + "\nTry 'spectrum read --help' for more.\n", read.err());

        Cli.Run board = Cli.run("board", "--peer", "serial:///dev/null?speed=9600");
        assertEquals(2, board.code(), board.all());
        assertEquals("board: cannot open the link: serial:///dev/null?speed=9600: serial:// takes only ?baud, not ?speed; "
                + "write e.g. serial:///dev/ttyAMA0?baud=115200\n", board.err());

        Cli.Run host = Cli.run("host", "--peer", "b=dtls://127.0.0.1:7700", "--no-dashboard");
        assertEquals(2, host.code(), host.all());
        assertEquals("spectrum host: cannot open a link: dtls://127.0.0.1:7700: DTLS needs this node's key: add "
                + "?keys=DIR&name=NAME or ?key=FILE&ca=FILE (or give --dtls-keys DIR); write e.g. "
                + "dtls://127.0.0.1:7700?keys=DIR&name=NAME\n", host.err());

        Cli.Run mount = Cli.run("host", "--serial", "s=serial:///dev/ttyS0?baud=fast&x=1", "--no-dashboard");
        assertEquals(2, mount.code(), mount.all());
        assertTrue(mount.err().startsWith("spectrum host: board s: serial:///dev/ttyS0?baud=fast&x=1: serial:// takes only "
                + "?baud, not ?x; write e.g. serial:///dev/ttyAMA0?baud=115200"), mount.err());

        Cli.Run bus = Cli.run("services", "--bus", "udp://127.0.0.1:1");
        assertEquals(2, bus.code(), bus.all());
        assertTrue(bus.err().contains("udp://127.0.0.1:1"), bus.err());
        assertEquals(1, bus.err().lines().count(), bus.err());
    }
}
