package io.spectrum.cli;

import io.spectrum.cli.demo.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HostCommandTest {
    static int freePort() throws Exception {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Test
    void refusesToStartWithNothingToConnect() {
        Cli.Run r = Cli.run("host");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("give --peer HOST:PORT, --serial DEVICE, --udp HOST:PORT or --bus PATH"), r.err());
        assertEquals(2, Cli.run("host", "--peer", "nohost").code());
    }

    @Test
    void mountNamesAndTopNamesAreCheckedBeforeAnythingOpens() {
        Cli.Run twice = Cli.run("host", "--peer", "a=127.0.0.1:1", "--peer", "a=127.0.0.1:2", "--no-dashboard");
        assertEquals(2, twice.code(), twice.all());
        assertTrue(twice.err().startsWith("spectrum host: two boards are named a; give each its own NAME="), twice.err());
        Cli.Run bad = Cli.run("host", "--peer", "a/b=127.0.0.1:1", "--no-dashboard");
        assertEquals(2, bad.code(), bad.all());
        assertTrue(bad.err().startsWith("spectrum host: mount name 'a/b' may hold only letters, digits"), bad.err());
        Cli.Run top = Cli.run("host", "--peer", "ref=127.0.0.1:1", "--top", "other=/sensor", "--no-dashboard");
        assertEquals(2, top.code(), top.all());
        assertTrue(top.err().startsWith("spectrum host: --top other=...: no board is mounted as other (the boards are ref)"), top.err());
        Cli.Run deep = Cli.run("host", "--peer", "ref=127.0.0.1:1", "--top", "ref=/sensor/temp", "--no-dashboard");
        assertEquals(2, deep.code(), deep.all());
        assertTrue(deep.err().contains("is not one top-level name like /sensor"), deep.err());
        Cli.Run help = Cli.run("host", "--help");
        assertTrue(help.out().contains("--peer=[NAME=]HOST:PORT") && help.out().contains("--top=NAME=/A,/B")
                && !help.out().contains("--path"), help.out());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aHostFileRunsTheHostAndAWrongOneIsOneLineWithItsPlace(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws Exception {
        java.nio.file.Path good = tmp.resolve("host.yaml");
        java.nio.file.Files.writeString(good, "name: plant1\nudp: 127.0.0.1:0\ndashboard: false\n");
        Cli.Run r = Cli.run("host", "--config", good.toString(), "--lines", "--duration", "1");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.out().contains("clients: udp 127.0.0.1:") && r.out().contains("plant1 stopped"), r.all());

        java.nio.file.Path bad = tmp.resolve("bad.yaml");
        java.nio.file.Files.writeString(bad, "udp: 127.0.0.1:0\ndashbaord: false\n");
        Cli.Run wrong = Cli.run("host", "--config", bad.toString(), "--duration", "1");
        assertEquals(2, wrong.code(), wrong.all());
        assertTrue(wrong.err().startsWith("spectrum host: " + bad + ":2: dashbaord: unknown key (did you mean dashboard?"),
                wrong.err());
        assertEquals(1, wrong.err().lines().count(), wrong.err());

        Cli.Run both = Cli.run("host", "--config", good.toString(), "--peer", "127.0.0.1:1");
        assertEquals(2, both.code(), both.all());
        assertTrue(both.err().startsWith("spectrum host: --config " + good + " holds the host's settings; give --peer in the file"),
                both.err());
    }

    /**
     * The in-process bridge dials the host's own loopback door, which is plain UDP whatever the board
     * links are: with DTLS board links it used to be dialled as DTLS too and the start failed
     * ({@code DtlsLink cannot be cast to UdpLink}, exit 3).
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aHostWithDtlsBoardLinksStartsItsMqttBridge(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) {
        java.nio.file.Path keys = tmp.resolve("keys");
        assertEquals(0, Cli.run("keys", "init", "--dir", keys.toString()).code());
        assertEquals(0, Cli.run("keys", "issue", "host", "--dir", keys.toString()).code());
        Cli.Run r = Cli.run("host", "--udp", "127.0.0.1:0", "--dtls-keys", keys.toString(), "--mqtt", "mqtt://127.0.0.1:1",
                "--no-dashboard", "--lines", "--duration", "1");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.out().contains("host stopped"), r.all());
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void mountsABoardServesTheDashboardAndAnswersClients() throws Exception {
        int boardPort = freePort();
        int clientPort = freePort();
        List<String> boardOut = new CopyOnWriteArrayList<>();
        try (ChildJvm board = new ChildJvm("board", List.of("-Xmx64m"),
                List.of(DemoCommand.boardCommand().get(0), "--name", "b", "--udp", "127.0.0.1:" + boardPort, "--period", "100"),
                boardOut::add)) {
            // the host dials the board: a datagram sent before the board listens is lost, and the host
            // asks again for its declarations only seconds later (longer than this host runs)
            long up = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (boardOut.stream().noneMatch(l -> l.contains("b ready on udp")) && System.nanoTime() < up) {
                Thread.sleep(20);
            }
            CompletableFuture<Cli.Run> host = CompletableFuture.supplyAsync(() -> Cli.run("host", "--peer", "127.0.0.1:" + boardPort,
                    "--udp", "127.0.0.1:" + clientPort, "--port", "0", "--lines", "--duration", "15"));
            // a client reads a board value through the host while it runs, whole path, in its unit
            String value = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline && !host.isDone()) {
                Cli.Run r = Cli.run("read", "--peer", "127.0.0.1:" + clientPort, "--timeout", "500", "/board1/temp");
                if (r.code() == 0) {
                    value = r.out();
                    if (value.contains("°C")) {
                        break; // the host has read the board's declaration and reports it (docs/host.md)
                    }
                }
                Thread.sleep(200);
            }
            assertTrue(value != null && value.matches("/board1/temp = -?\\d+\\.\\d\\d °C\\n"),
                    "read through the host, whole path, in the board's unit: " + value + " board: " + boardOut);
            // a client subscribes through the host: the host holds the value now, and prints it
            Cli.Run sub = Cli.run("sub", "--peer", "127.0.0.1:" + clientPort, "/board1/temp", "--count", "2");
            assertEquals(0, sub.code(), sub.all());
            Cli.Run run = host.get(60, TimeUnit.SECONDS);
            assertEquals(0, run.code(), run.all());
            assertTrue(run.out().contains("board1: udp->127.0.0.1:" + boardPort), run.out());
            assertTrue(run.out().contains("dashboard: http://127.0.0.1:"), run.out());
            assertTrue(run.out().lines().anyMatch(l -> l.matches("/board1/temp = -?\\d+\\.\\d\\d °C  \\(seq \\d+\\)")), run.out());
            assertTrue(run.out().lines().anyMatch("board1 up"::equals), "the host says when a board answers: " + run.out());
            assertTrue(run.out().contains("host stopped"), run.out());
        }
    }
}
