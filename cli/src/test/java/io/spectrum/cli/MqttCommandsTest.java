package io.spectrum.cli;

import io.spectrum.board.Board;
import io.spectrum.bridge.Mosquitto;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.time.SystemClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two hosts into one real Mosquitto: {@code spectrum host --mqtt} (the bridge in the host's process)
 * with one board, {@code spectrum bridge --peer} beside another board; {@code spectrum ls --mqtt}
 * lists both hosts' boards, and {@code sub --mqtt} follows one with MQTT wildcards.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MqttCommandsTest {
    @Test
    void lsFromTheBrokerShowsBothHostsBoards() throws Exception {
        try (Mosquitto broker = Mosquitto.start(); Board b1 = board("kitchen"); Board b2 = board("garage")) {
            Thread host = background("host", "--peer", addr(b1), "--name", "plant1", "--lines", "--no-dashboard",
                    "--mqtt", broker.url(), "--duration", "60");
            Thread bridge = background("bridge", "--peer", addr(b2), "--name", "lab", "--mqtt", broker.url(),
                    "--duration", "60");
            try {
                Cli.Run ls = null;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (System.nanoTime() < deadline) {
                    ls = Cli.run("ls", "--mqtt", broker.url());
                    if (ls.out().contains("/plant1/board1/name") && ls.out().contains("kitchen")
                            && ls.out().contains("/lab/name") && ls.out().contains("garage")) {
                        break;
                    }
                    Thread.sleep(200);
                }
                assertEquals(0, ls.code(), ls.err());
                assertTrue(ls.out().matches("(?s).*/lab/temp\\s+-?[0-9.]+ °C.*"), ls.out());
                assertTrue(ls.out().matches("(?s).*/plant1/board1/temp\\s+-?[0-9.]+ °C.*"), ls.out());
                assertTrue(ls.out().contains("/plant1/$online") && ls.out().contains("/lab/$online"), ls.out());
                Cli.Run sub = Cli.run("sub", "--mqtt", broker.url(), "/+/board1/counter", "-C", "4", "--json");
                assertEquals(0, sub.code(), sub.err());
                assertEquals(4, sub.out().lines().count(), sub.out());
                assertTrue(sub.out().lines().allMatch(l -> l.contains("\"seq\":") && l.contains("/board")), sub.out());
            } finally {
                host.interrupt();
                bridge.interrupt();
            }
        }
    }

    /** A demo board publishing every 50 ms on a free loopback UDP port (shared with MqttTwoHostsTest). */
    static Board board(String name) throws Exception {
        Board b = new Board(name, 50);
        b.attach(UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0), new UdpLinkConfig(), SystemClock.INSTANCE));
        b.start();
        return b;
    }

    static String addr(Board b) {
        return "127.0.0.1:" + ((UdpLink) b.loop().links().get(0)).localAddress().getPort();
    }

    /** Runs the command line on a daemon thread (a host or bridge for the test's length). */
    static Thread background(String... args) {
        Thread t = new Thread(() -> Cli.run(args), "cli " + args[0]);
        t.setDaemon(true);
        t.start();
        return t;
    }
}
