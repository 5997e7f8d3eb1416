package io.spectrum.cli;

import io.spectrum.board.Board;
import io.spectrum.bridge.BrokerView;
import io.spectrum.bridge.CallbackAdapter;
import io.spectrum.bridge.Mosquitto;
import org.eclipse.paho.mqttv5.client.MqttClient;
import org.eclipse.paho.mqttv5.client.persist.MemoryPersistence;
import org.eclipse.paho.mqttv5.common.MqttMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 15's fabric: two hosts ({@code spectrum host --mqtt}), each mounting two emulated boards
 * over UDP, bridged to one real Mosquitto. Host "plant1" runs in a child JVM (so it can be killed
 * without a goodbye), host "lab" in this JVM with a client port. Checks: {@code ls --mqtt} shows
 * the four boards; a {@code …/set} on a {@code --mqtt-writable} path reaches the board through the
 * host (read back from the board itself) and a non-writable one is refused on {@code …/set/error};
 * the broker killed and restarted: the retained
 * state is complete again (the time it took is printed, not asserted); plant1 killed: its
 * {@code $online} flips to false by the last will.
 */
@Timeout(value = 480, unit = TimeUnit.SECONDS)
class MqttTwoHostsTest {
    private static final List<String> BOARDS = List.of("/plant1/board1/name", "/plant1/board2/name",
            "/lab/board1/name", "/lab/board2/name");

    @Test
    void twoHostsFourBoardsOneBroker() throws Exception {
        try (Mosquitto broker = Mosquitto.start(); Board p1 = MqttCommandsTest.board("p1"); Board p2 = MqttCommandsTest.board("p2");
             Board l1 = MqttCommandsTest.board("l1"); Board l2 = MqttCommandsTest.board("l2")) {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process plant1 = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                    SpectrumCommand.class.getName(), "host", "--peer", MqttCommandsTest.addr(p1), "--peer", MqttCommandsTest.addr(p2), "--name", "plant1",
                    "--no-dashboard", "--mqtt", broker.url(), "--duration", "200")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            int clientPort;
            try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
                clientPort = s.getLocalPort();
            }
            String labClient = "127.0.0.1:" + clientPort;
            Thread lab = MqttCommandsTest.background("host", "--peer", MqttCommandsTest.addr(l1), "--peer", MqttCommandsTest.addr(l2), "--name", "lab",
                    "--udp", labClient, "--no-dashboard", "--mqtt", broker.url(),
                    "--mqtt-writable", "/board1/led", "--duration", "200");
            try {
                // 1. one listing from the broker: both hosts, all four boards
                Cli.Run ls = lsUntil(broker, out -> BOARDS.stream().allMatch(out::contains)
                        && out.contains("/plant1/$online") && out.contains("/lab/$online"));
                for (String b : List.of("/plant1/board1", "/plant1/board2", "/lab/board1", "/lab/board2")) {
                    assertTrue(ls.out().matches("(?s).*" + b + "/temp\\s+-?[0-9.]+ °C.*"), ls.out());
                }

                step("listed");
                // 2. writes from MQTT: the writable path reaches the board through the host; the other is refused
                try (Publisher pub = new Publisher(broker.url())) {
                    pub.watch("spectrum/lab/+/led/set/error");
                    pub.send("spectrum/lab/board1/led/set", "1");
                    Cli.Run back = until(() -> Cli.run("read", "--peer", MqttCommandsTest.addr(l1), "--timeout", "500", "/led"),
                            r -> r.code() == 0 && r.out().trim().endsWith("1"), "the board's led reading 1");
                    assertTrue(back.out().contains("1"), back.out());
                    pub.send("spectrum/lab/board2/led/set", "1");
                    String error = pub.next(30);
                    assertNotNull(error, "no refusal on spectrum/lab/board2/led/set/error");
                    assertTrue(error.contains("\"ok\":false") && error.contains("tr::access::denied")
                            && error.contains("/board2/led"), error);
                    Cli.Run untouched = Cli.run("read", "--peer", MqttCommandsTest.addr(l2), "--timeout", "500", "/led");
                    assertEquals(0, untouched.code(), untouched.err());
                    assertTrue(untouched.out().trim().endsWith("0"), untouched.out());
                }

                step("writes");
                // 3. the broker down: the host still serves its own clients
                Set<String> before = retainedPaths(broker);
                broker.kill();
                Cli.Run sub = until(() -> Cli.run("sub", "--peer", labClient, "/board1/counter", "--count", "3"),
                        r -> r.code() == 0, "a sub through the lab host while the broker is down");
                assertEquals(3, sub.out().lines().filter(l -> l.contains("/board1/counter")).count(), sub.out());
                step("sub while down");
                // ... and back: the retained state complete again (measured, printed; the deadline is the assertion's)
                broker.restart();
                long back = System.nanoTime();
                Set<String> seen = new HashSet<>();
                try (BrokerView v = BrokerView.open(broker.address(), "spectrum/#")) {
                    long deadline = back + TimeUnit.SECONDS.toNanos(60);
                    while (!seen.containsAll(before) && System.nanoTime() < deadline) {
                        BrokerView.Value x = v.next(100);
                        if (x != null) {
                            seen.add(x.path());
                        }
                    }
                }
                long completeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - back);
                Set<String> missing = new HashSet<>(before);
                missing.removeAll(seen);
                assertTrue(missing.isEmpty(), "not republished after the broker returned: " + missing);
                Set<String> after = retainedPaths(broker);
                assertTrue(after.containsAll(before), "retained after the restart lacks " + minus(before, after));
                System.out.println("MqttTwoHostsTest: " + before.size() + " retained topics complete again "
                        + completeMillis + " ms after the broker accepted connections");

                step("restart");
                // 4. plant1 killed (SIGKILL): the broker publishes its last will
                plant1.destroyForcibly();
                plant1.waitFor(10, TimeUnit.SECONDS);
                lsUntil(broker, out -> out.matches("(?s).*/plant1/\\$online\\s+false.*"));
            } finally {
                plant1.destroyForcibly();
                lab.interrupt();
            }
        }
    }

    private static final long START = System.nanoTime();

    private static void step(String what) {
        System.out.println("MqttTwoHostsTest: " + what + " at " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - START) + " ms");
    }

    private static Set<String> minus(Set<String> a, Set<String> b) {
        Set<String> m = new HashSet<>(a);
        m.removeAll(b);
        return m;
    }

    /**
     * The paths a new subscriber gets retained: the broker sends those first on subscribe, so the
     * listing ends at the first live (not retained) message, or after 1 s without any.
     */
    private static Set<String> retainedPaths(Mosquitto broker) throws Exception {
        Set<String> out = new HashSet<>();
        try (BrokerView v = BrokerView.open(broker.address(), "spectrum/#")) {
            BrokerView.Value x;
            while ((x = v.next(1_000)) != null && x.retained()) {
                if (!x.path().endsWith("/$online")) {
                    out.add(x.path());
                }
            }
        }
        return out;
    }

    private static Cli.Run lsUntil(Mosquitto broker, Predicate<String> done) throws Exception {
        return until(() -> Cli.run("ls", "--mqtt", broker.url()), r -> r.code() == 0 && done.test(r.out()), "ls --mqtt");
    }

    /** One try of a command line ({@link #until}). */
    interface Step {
        Cli.Run run() throws Exception;
    }

    /** Runs {@code step} every 200 ms until {@code done} holds (fails after 60 s, with the last run's output). */
    static Cli.Run until(Step step, Predicate<Cli.Run> done, String what) throws Exception {
        Cli.Run r = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            r = step.run();
            if (done.test(r)) {
                return r;
            }
            Thread.sleep(200);
        }
        fail(what + " did not happen within 60 s; last: " + (r == null ? "nothing" : r.all()));
        return r;
    }

    /** A plain MQTT client: publishes a {@code …/set}, collects what arrives on a watched filter. */
    private static final class Publisher implements AutoCloseable {
        private final MqttClient client;
        private final BlockingQueue<String> got = new LinkedBlockingQueue<>();

        Publisher(String url) throws Exception {
            client = new MqttClient(url.replace("mqtt://", "tcp://"), "test-" + System.nanoTime(), new MemoryPersistence());
            client.connect();
        }

        void watch(String filter) throws Exception {
            client.setCallback(new CallbackAdapter() {
                @Override
                public void messageArrived(String topic, MqttMessage m) {
                    got.add(new String(m.getPayload(), StandardCharsets.UTF_8));
                }
            });
            client.subscribe(filter, 1); // (Paho 1.2.5's subscribe with a listener recurses forever)
        }

        void send(String topic, String payload) throws Exception {
            MqttMessage m = new MqttMessage(payload.getBytes(StandardCharsets.UTF_8));
            m.setQos(1);
            client.publish(topic, m);
        }

        String next(int seconds) throws InterruptedException {
            return got.poll(seconds, TimeUnit.SECONDS);
        }

        @Override
        public void close() throws Exception {
            client.disconnect();
            client.close();
        }
    }
}
