package io.spectrum.examples.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.client.bus.BusClient;
import io.spectrum.link.local.LocalLink;
import io.spectrum.testing.Tools;
import io.spectrum.time.SystemClock;
import io.spectrum.bus.protocol.BusFields;
import io.spectrum.bus.server.BusHost;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.wide.Grants;
import io.spectrum.bus.store.StoreConfig;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.UnixDomainSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Python host-bus client (examples/python) against a real {@link BusHost} on a temporary Unix
 * socket: {@code follow_and_call.py} subscribes bounded, the test publishes five values from Java and
 * serves {@code calc.add} from Java, and the script's output lists the five with their sequences and
 * the call's outcome. Each Python process is the test's own and is killed when it overruns its
 * bound. Skipped where python3 is not on PATH (failed under CI=true, {@link Tools}).
 */
class PythonBusExampleTest {
    private static final long STEP_SECONDS = 20;
    private static final Path SCRIPTS = Path.of(System.getProperty("basedir", ".")).resolve("python");

    @TempDir
    Path tmp;

    private BusHost host;
    private Path socket;
    private final List<Process> started = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        socket = tmp.resolve("bus.sock");
        LocalLink listener = LocalLink.listen(2, UnixDomainSocketAddress.of(socket), BusClient.linkConfig(),
                SystemClock.INSTANCE);
        host = BusHost.start(StoreConfig.builder(tmp.resolve("store")).build(), BusLimits.defaults(),
                name -> Grants.open(), List.of(listener));
    }

    @AfterEach
    void stop() {
        for (Process p : started) {
            p.destroyForcibly(); // only the processes this test started, by their handle
        }
        host.close();
    }

    /** A running script, its merged stdout and stderr read line by line on a daemon thread. */
    private record Script(Process process, Thread reader, BlockingQueue<String> lines, List<String> all) {
        String next(String startingWith) throws InterruptedException {
            for (String l; (l = lines.poll(STEP_SECONDS, TimeUnit.SECONDS)) != null; ) {
                if (l.startsWith(startingWith)) {
                    return l;
                }
            }
            return null;
        }

        int exit() throws InterruptedException {
            if (!process.waitFor(STEP_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("the script overran " + STEP_SECONDS + " s and was killed; it printed " + all);
            }
            reader.join(TimeUnit.SECONDS.toMillis(STEP_SECONDS)); // the output's last lines
            return process.exitValue();
        }
    }

    private Script python(String... args) throws Exception {
        Path python = Tools.require("python3", "python3", "the Python host-bus example (examples/python) runs under it");
        List<String> cmd = new ArrayList<>(List.of(python.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(SCRIPTS.toFile()).redirectErrorStream(true);
        pb.environment().put("PYTHONUNBUFFERED", "1");
        pb.environment().put("PYTHONDONTWRITEBYTECODE", "1");
        Process p = pb.start();
        started.add(p);
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        List<String> all = java.util.Collections.synchronizedList(new ArrayList<>());
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String l; (l = r.readLine()) != null; ) {
                    all.add(l);
                    lines.add(l);
                }
            } catch (java.io.IOException e) {
                all.add("(output cut: " + e.getMessage() + ")");
            }
        }, "python-output");
        reader.setDaemon(true);
        reader.start();
        return new Script(p, reader, lines, all);
    }

    @Test
    void thePythonExampleFollowsFivePublishedValuesInOrderAndPrintsTheCallsOutcome() throws Exception {
        try (AddService calc = new AddService(Args.connect(socket, "calc"));
                BusClient publisher = Args.connect(socket, "java-publisher")) {
            Script py = python("follow_and_call.py", "--bus", socket.toString(), "--name", "py-follower",
                    "--topic", "demo.values", "--max-queued", "8", "--max-in-flight", "2", "--count", "5",
                    "--call", AddService.NAME, "--args", "2+3");
            assertEquals("hello: py-follower (incarnation 1)", py.next("hello"), "printed " + py.all());
            String subscribed = py.next("subscribed");
            assertNotNull(subscribed, "the script subscribed; it printed " + py.all());
            assertTrue(subscribed.matches("subscribed demo\\.values as sub-\\d+ \\(bounded, maxQueued 8, maxInFlight 2\\)"),
                    subscribed);
            List<Long> sequences = new ArrayList<>();
            for (int i = 1; i <= 5; i++) {
                BusFields r = publisher.publish("demo.values", ("value " + i).getBytes(StandardCharsets.UTF_8));
                assertEquals(1, r.u64("subscribers"), "the Python subscriber is the one subscriber");
                sequences.add(r.u64("topicSequence"));
            }
            assertEquals(0, py.exit(), "printed " + py.all());
            List<String> deliveries = new ArrayList<>();
            String result = null;
            for (String l : py.all()) {
                if (l.startsWith("delivery ")) {
                    deliveries.add(l.replaceAll(" \\(0 attachments; dlv-\\d+ consumed, 1 released\\)$", ""));
                } else if (l.startsWith("result ")) {
                    result = l;
                }
            }
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                expected.add("delivery topicSequence " + sequences.get(i) + " payload 'value " + (i + 1) + "'");
            }
            assertEquals(expected, deliveries, "all five, in order, each consumed; printed " + py.all());
            assertEquals(List.of(1L, 2L, 3L, 4L, 5L), sequences, "the topic was new");
            assertEquals("result call-1 from calc: '5'", result, "printed " + py.all());
            assertTrue(py.all().stream().anyMatch(l -> l.matches("call call-1 calc\\.add '2\\+3': accepted by .+")),
                    "printed " + py.all());
        }
        for (int i = 0; i < 500 && host.stats().subscriptions() > 0; i++) {
            Thread.sleep(10);
        }
        assertEquals(0, host.stats().subscriptions(), "the script's subscription went with its connection");
    }

    @Test
    void aDeliveryWithAnArtifactDecodesItsNestedRecordsAndConsumingReleasesTheRoot() throws Exception {
        try (FramePublisher camera = new FramePublisher(Args.connect(socket, "camera"))) {
            Script py = python("follow_and_call.py", "--bus", socket.toString(), "--name", "py-viewer",
                    "--topic", FramePublisher.TOPIC, "--count", "1");
            assertNotNull(py.next("subscribed"), "printed " + py.all());
            FramePublisher.Published p = camera.publish(1);
            assertEquals(1, p.subscribers());
            assertEquals(1, p.release(), "the publisher's hold goes; the Python delivery still holds the frame");
            assertEquals(0, py.exit(), "printed " + py.all());
            String line = py.all().stream().filter(l -> l.startsWith("delivery ")).findFirst().orElse(null);
            assertNotNull(line, "printed " + py.all());
            assertTrue(line.matches("delivery topicSequence " + p.topicSequence()
                    + " payload '\\{\"frame\":1,.*\\}' \\(1 attachments; dlv-\\d+ consumed, 1 released\\)"), line);
            assertEquals(0, host.stats().sealedArtifacts(), "the Python consume released the last root");
        }
    }

    @Test
    void aNameTheBusDoesNotTakeIsRefusedAtHello() throws Exception {
        Script py = python("follow_and_call.py", "--bus", socket.toString(), "--name", "Not An Id");
        assertEquals(1, py.exit(), "printed " + py.all());
        assertTrue(py.all().get(0).startsWith("bus: bus.hello: INVALID_ENVELOPE: "), py.all().toString());
    }

    @Test
    void aRefusedCallIsOneLineAndExitOne() throws Exception {
        Script py = python("follow_and_call.py", "--bus", socket.toString(), "--call", "calc.mul", "--count", "1");
        assertEquals(1, py.exit(), "printed " + py.all());
        String last = py.all().get(py.all().size() - 1);
        assertTrue(last.startsWith("bus: rpc.call: NO_SERVICE: "), last);
    }

    @Test
    void nothingListeningIsOneLineAndExitOne() throws Exception {
        Script py = python("follow_and_call.py", "--bus", tmp.resolve("nothing.sock").toString());
        assertEquals(1, py.exit(), "printed " + py.all());
        assertTrue(py.all().get(0).startsWith("bus: no bus at "), py.all().toString());
    }

    @Test
    void theCodecsUnitTestsPass() throws Exception {
        Script py = python("-m", "unittest", "-v", "test_spectrum_bus");
        assertEquals(0, py.exit(), "printed " + py.all());
        assertTrue(py.all().contains("OK"), py.all().toString());
    }
}
