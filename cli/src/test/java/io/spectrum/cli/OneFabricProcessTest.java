package io.spectrum.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.spectrum.bridge.BrokerView;
import io.spectrum.bridge.Mosquitto;
import io.spectrum.board.NodeChild;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.client.bus.BusClient;
import io.spectrum.testing.Tools;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One fabric with real processes: a board ({@code spectrum board}), a host with {@code --bus}
 * ({@code spectrum host}) and a host application on the bus ({@link FabricBusApp}), each its own JVM.
 * The application follows the board's counter through the bus with the bounded mode and gets every
 * value in order (consecutive host sequences and delivery numbers); its write of the board's LED
 * changes the board's own value (read from the board itself); its write of a new vertex on the host
 * is read by {@code spectrum read} over UDP and, with {@code --mqtt}, is a retained MQTT topic. The
 * Python example does the same through the same socket, and calls a bus service.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class OneFabricProcessTest {
    private static final Pattern VALUE = Pattern.compile("value /board1/counter seq (\\d+) dlv (\\d+) = (-?\\d+)");

    @TempDir
    Path tmp;

    @Test
    void aBusApplicationFollowsABoardWritesItsLedAndPublishesToTheHost() throws Exception {
        fabric(null);
    }

    @Test
    void whatTheBusApplicationPublishesIsARetainedMqttTopic() throws Exception {
        try (Mosquitto broker = Mosquitto.start()) {
            fabric(broker);
        }
    }

    /** A board and a host with {@code --bus} (and {@code --mqtt} when a broker is given), each its own JVM. */
    private final class Fabric implements AutoCloseable {
        final String board;
        final String clients;
        final Path socket = tmp.resolve("bus.sock");
        private final NodeChild b;
        private final NodeChild h;

        Fabric(Mosquitto broker) throws Exception {
            board = "127.0.0.1:" + freeUdpPort();
            clients = "127.0.0.1:" + freeUdpPort();
            List<String> hostArgs = new ArrayList<>(List.of("host", "--name", "h1", "--peer", "board1=" + board,
                    "--bus", socket.toString(), "--udp", clients, "--no-dashboard", "--duration", "200"));
            if (broker != null) {
                hostArgs.addAll(List.of("--mqtt", broker.url()));
            }
            b = new NodeChild("board", "--udp", board, "--name", "b1", "--period", "50");
            h = new NodeChild(hostArgs.toArray(String[]::new));
            assertNotNull(b.await(l -> l.startsWith("b1 ready on udp"), 60), b.output());
            assertNotNull(h.await(l -> l.startsWith("h1 ready on"), 60), h.output());
            MqttTwoHostsTest.until(() -> Cli.run("read", "--peer", clients, "--timeout", "500", "/board1/counter"),
                    r -> r.code() == 0, "the host serving the board's counter");
        }

        /** Waits until the board's own LED reads {@code value}. */
        void boardLed(String value) throws Exception {
            Cli.Run led = MqttTwoHostsTest.until(() -> Cli.run("read", "--peer", board, "--timeout", "500", "/led"),
                    r -> r.code() == 0 && r.out().trim().endsWith(value), "the board's own LED reading " + value);
            assertTrue(led.out().trim().endsWith(value), led.out());
        }

        @Override
        public void close() throws Exception {
            try (b; h) {
                // both children are killed, the host first
            }
        }
    }

    private void fabric(Mosquitto broker) throws Exception {
        try (Fabric f = new Fabric(broker);
                NodeChild app = new NodeChild(List.of(f.socket.toString(), "/board1/counter", "10", "/board1/led",
                        "/lab/setpoint", "42"), FabricBusApp.class.getName())) {
            assertNotNull(app.await("done"::equals, 90), app.output());
            String out = app.output();
            assertTrue(out.contains("follow /board1/counter ok"), out);
            Matcher m = VALUE.matcher(out);
            List<long[]> values = new ArrayList<>();
            while (m.find()) {
                values.add(new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3))});
            }
            assertEquals(10, values.size(), out);
            for (int i = 1; i < values.size(); i++) {
                assertEquals(values.get(i - 1)[0] + 1, values.get(i)[0], "every value, in order (host sequence): " + out);
                assertEquals(values.get(i - 1)[1] + 1, values.get(i)[1], "one delivery number each: " + out);
                assertTrue(values.get(i)[2] > values.get(i - 1)[2], "the counter grows: " + out);
            }
            assertTrue(out.contains("write /board1/led ok"), out);
            assertTrue(out.contains("write /lab/setpoint ok"), out);
            f.boardLed("1");
            Cli.Run setpoint = MqttTwoHostsTest.until(() -> Cli.run("read", "--peer", f.clients, "--timeout", "500", "/lab/setpoint"),
                    r -> r.code() == 0, "/lab/setpoint read over UDP");
            // the application has gone, so its value is no longer current: shown, and marked with why
            assertTrue(setpoint.out().contains("= 42") && setpoint.out().contains("stale: publisher gone"), setpoint.out());
            // its bus publish to the topic lab.status is the host's vertex /lab/status, read over UDP
            assertTrue(out.contains("publish lab.status seq 1"), out);
            Cli.Run status = MqttTwoHostsTest.until(() -> Cli.run("read", "--peer", f.clients, "--timeout", "500", "/lab/status"),
                    r -> r.code() == 0, "/lab/status read over UDP");
            // a text payload is kept as text (a NAME), shown as such; the publisher has gone
            assertTrue(status.out().contains("running") && status.out().contains("(seq 1, stale: publisher gone)"),
                    status.out());
            if (broker != null) {
                retained(broker, "/lab/setpoint", "42");
                retained(broker, "/lab/status", "running");
            }
        }
    }

    @Test
    void aPythonProgramFollowsTheBoardBoundedThroughTheBusWritesItsLedAndCallsAService() throws Exception {
        Path python = Tools.require("python3", "python3", "the Python host-bus example (examples/python) runs under it");
        Path scripts = Path.of(System.getProperty("basedir", ".")).resolve("../examples/python").normalize();
        try (Fabric f = new Fabric(null);
                BusClient calc = BusClient.connect("unix://" + f.socket, "calc", 5_000)) {
            calc.serve("calc.add", 16, 4, rq -> {
                try {
                    rq.reply("5".getBytes(StandardCharsets.UTF_8));
                    rq.consume();
                } catch (BusException e) {
                    throw new IllegalStateException(e);
                }
            });
            Process p = new ProcessBuilder(python.toString(), "follow_and_call.py", "--bus", f.socket.toString(),
                    "--name", "py-lab", "--vertex", "/board1/counter", "--count", "5", "--write", "/board1/led=1",
                    "--call", "calc.add", "--args", "2+3").directory(scripts.toFile()).redirectErrorStream(true).start();
            try {
                assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the script overran 60 s");
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertEquals(0, p.exitValue(), out);
                assertTrue(out.contains("wrote /board1/led = 1"), out);
                assertTrue(out.matches("(?s).*following /board1/counter as slot \\d+ \\(bounded.*"), out);
                Matcher m = Pattern.compile("value seq (\\d+) dlv (\\d+) [0-9a-f]+ \\(consumed\\)").matcher(out);
                List<long[]> values = new ArrayList<>();
                while (m.find()) {
                    values.add(new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))});
                }
                assertEquals(5, values.size(), out);
                for (int i = 1; i < values.size(); i++) {
                    assertEquals(values.get(i - 1)[0] + 1, values.get(i)[0], "every value, in order: " + out);
                    assertEquals(values.get(i - 1)[1] + 1, values.get(i)[1], "one delivery number each: " + out);
                }
                assertTrue(out.contains("result call-1 from calc: '5'"), out);
            } finally {
                p.destroyForcibly(); // this test's own process, by its handle
            }
            f.boardLed("1");
        }
    }

    /** Waits for the broker to hold a retained message for {@code path} whose text is {@code text}. */
    private static void retained(Mosquitto broker, String path, String text) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        List<String> seen = new ArrayList<>();
        while (System.nanoTime() < deadline) {
            try (BrokerView v = BrokerView.open(broker.address(), "spectrum/#")) {
                for (BrokerView.Value x; (x = v.next(1_000)) != null && x.retained(); ) {
                    seen.add(x.path() + "=" + x.text());
                    if (x.path().endsWith(path) && text.equals(x.text())) {
                        return;
                    }
                }
            }
        }
        fail("no retained " + path + " = " + text + " on the broker; retained: " + seen);
    }

    private static int freeUdpPort() throws Exception {
        try (java.net.DatagramSocket s = new java.net.DatagramSocket(0, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
