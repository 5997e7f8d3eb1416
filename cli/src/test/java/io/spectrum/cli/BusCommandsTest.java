package io.spectrum.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.spectrum.cli.demo.ChildJvm;
import io.spectrum.cli.output.ClientOutput;
import io.spectrum.client.bus.BusClient;
import io.spectrum.client.bus.Request;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusFields;
import java.net.UnixDomainSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code spectrum host --bus} in its own JVM (ended by --duration, or by SIGTERM as Ctrl-C ends it) and the bus
 * commands against it: a service registered by a client in this test is called with
 * {@code spectrum call} (text and JSON) and listed by {@code spectrum services}; a call to no
 * service is one line and exit 1; {@code artifact put/get} round-trips a 3 MB file through a
 * retained topic and {@code artifact ls} shows it; a grants file that grants no call refuses it;
 * a malformed one stops the host at once with one line.
 */
class BusCommandsTest {
    @TempDir
    Path tmp;

    private static ChildJvm host(List<String> args, List<String> out) throws Exception {
        List<String> all = new java.util.ArrayList<>(List.of("host", "--lines"));
        if (!args.contains("--port")) {
            all.add("--no-dashboard");
        }
        all.addAll(args);
        ChildJvm h = new ChildJvm("host", List.of("-Xmx128m"), all, out::add);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (out.stream().noneMatch(l -> l.contains("ready on")) && System.nanoTime() < deadline && h.isAlive()) {
            Thread.sleep(20);
        }
        assertTrue(out.stream().anyMatch(l -> l.contains("ready on")), "the host started: " + out);
        return h;
    }

    private static BusClient calculator(Path socket, String name) throws BusException {
        BusClient svc = BusClient.connect(UnixDomainSocketAddress.of(socket), name, 5_000);
        svc.serve("calc.add", 4, 4, (Request rq) -> {
            try {
                String[] ab = new String(rq.payload(), StandardCharsets.UTF_8).split(" ");
                int sum = 0;
                for (String x : ab) {
                    sum += Integer.parseInt(x);
                }
                rq.reply(("sum " + sum).getBytes(StandardCharsets.UTF_8));
                rq.consume();
            } catch (BusException e) {
                // the bus went away (the host is stopping): nothing to answer
            }
        });
        return svc;
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aHostWithABusServesCallsServicesAndArtifacts() throws Exception {
        Path socket = tmp.resolve("run/bus.sock");
        String bus = socket.toString();
        List<String> out = new CopyOnWriteArrayList<>();
        BusClient svc;
        ChildJvm child;
        try (ChildJvm h = host(List.of("--bus", bus, "--duration", "12", "--port", "0"), out)) {
            child = h;
            assertTrue(out.contains("[host] bus: " + socket + " (store " + socket + ".store)"), out.toString());
            assertTrue(out.stream().anyMatch(l -> l.startsWith("[host] bus: no --bus-grants: every client may")), out.toString());
            svc = calculator(socket, "calc");

            Cli.Run text = Cli.run("call", "calc.add", "2", "3", "--bus", bus);
            assertEquals(0, text.code(), text.all());
            assertEquals("sum 5\n", text.out());
            Cli.Run json = Cli.run("call", "calc.add", "40", "2", "--bus", bus, "--json");
            assertEquals(0, json.code(), json.all());
            JsonNode j = ClientOutput.JSON.readTree(json.out());
            assertEquals("sum 42", j.get("outcome").asText());
            assertEquals("calc", j.get("responder").asText());
            assertTrue(j.get("callId").asText().length() > 0 && j.get("serviceIncarnation").asText().length() > 0, json.out());
            assertEquals(0, j.get("artifacts").size());

            Cli.Run services = Cli.run("services", "--bus", bus, "--json");
            assertEquals(0, services.code(), services.all());
            JsonNode list = ClientOutput.JSON.readTree(services.out());
            assertEquals(1, list.size(), services.out());
            assertEquals("calc.add", list.get(0).get("name").asText());
            assertEquals("calc", list.get(0).get("holder").asText());
            assertEquals(j.get("serviceIncarnation").asText(), list.get(0).get("serviceIncarnation").asText());
            // the dashboard's snapshot carries the bus's counters
            String url = out.stream().filter(l -> l.startsWith("[host] dashboard: ")).findFirst().orElseThrow()
                    .substring("[host] dashboard: ".length()).strip();
            java.net.http.HttpResponse<String> snap = java.net.http.HttpClient.newHttpClient().send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create(url.replaceAll("/$", "") + "/api/snapshot")).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            JsonNode busStats = ClientOutput.JSON.readTree(snap.body()).get("bus");
            assertEquals(1, busStats.get("services").asInt(), snap.body());
            assertTrue(busStats.get("connections").asInt() >= 1, snap.body());
            assertEquals(0, busStats.get("sealedArtifacts").asInt(), snap.body());
            Cli.Run servicesText = Cli.run("services", "--bus", bus);
            assertTrue(servicesText.out().startsWith("calc.add  incarnation "), servicesText.out());

            Cli.Run none = Cli.run("call", "no.such", "x", "--bus", bus);
            assertEquals(1, none.code(), none.all());
            assertTrue(none.err().startsWith("spectrum call: NO_SERVICE: ") && none.err().lines().count() == 1, none.err());
            assertEquals("", none.out());

            byte[] data = new byte[3 << 20];
            new Random(14).nextBytes(data);
            Path in = tmp.resolve("in.bin");
            Files.write(in, data);
            Cli.Run put = Cli.run("artifact", "put", in.toString(), "--topic", "files.last", "--bus", bus, "--json");
            assertEquals(0, put.code(), put.all());
            JsonNode ref = ClientOutput.JSON.readTree(put.out()).get("ref");
            assertEquals(data.length, ref.get("length").asLong());
            assertEquals(java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(data)),
                    ref.get("digest").asText());
            Path copy = tmp.resolve("copy.bin");
            Cli.Run get = Cli.run("artifact", "get", "--topic", "files.last", "-o", copy.toString(), "--bus", bus);
            assertEquals(0, get.code(), get.all());
            assertArrayEquals(data, Files.readAllBytes(copy), "byte for byte");
            Cli.Run ls = Cli.run("artifact", "ls", "--bus", bus, "--json");
            assertEquals(0, ls.code(), ls.all());
            JsonNode objects = ClientOutput.JSON.readTree(ls.out());
            assertEquals(1, objects.size(), "one object, held by the topic's retained value: " + ls.out());
            assertEquals(ref.get("artifactId").asLong(), objects.get(0).get("artifactId").asLong());
            assertEquals(1, objects.get(0).get("roots").asLong(), ls.out());
            assertEquals("[\"files.last\"]", objects.get(0).get("retainedBy").toString(), ls.out());
            long artifactId = ref.get("artifactId").asLong();
            Path byId = tmp.resolve("by-id.bin");
            Cli.Run getId = Cli.run("artifact", "get", Long.toString(artifactId), "-o", byId.toString(), "--bus", bus);
            assertEquals(0, getId.code(), getId.all());
            assertArrayEquals(data, Files.readAllBytes(byId), "by id, through the topic that retains it");
            Files.delete(byId);
            Cli.Run getGen = Cli.run("artifact", "get", artifactId + "@" + ref.get("generation").asLong(), "-o",
                    byId.toString(), "--bus", bus);
            assertEquals(0, getGen.code(), getGen.all());
            assertArrayEquals(data, Files.readAllBytes(byId), "by id and generation");
            Cli.Run wrongGen = Cli.run("artifact", "get", artifactId + "@" + (ref.get("generation").asLong() + 1),
                    "--bus", bus);
            assertEquals(1, wrongGen.code(), wrongGen.all());
            assertTrue(wrongGen.err().startsWith("spectrum artifact get: ARTIFACT_GONE: artifact ")
                    && wrongGen.err().lines().count() == 1, wrongGen.err());
            Cli.Run badId = Cli.run("artifact", "get", "seven", "--bus", bus);
            assertEquals(2, badId.code(), badId.all());
            assertTrue(badId.err().startsWith("spectrum artifact get: ID is N or N@GENERATION"), badId.err());
            Cli.Run both = Cli.run("artifact", "get", Long.toString(artifactId), "--topic", "files.last", "--bus", bus);
            assertEquals(2, both.code(), both.all());
            Cli.Run lsText = Cli.run("artifact", "ls", "--bus", bus);
            assertTrue(lsText.out().contains("roots 1  retained by files.last"), lsText.out());
            Cli.Run noTopic = Cli.run("artifact", "put", in.toString(), "--bus", bus);
            assertEquals(2, noTopic.code(), noTopic.all());
            assertTrue(noTopic.err().startsWith("spectrum artifact put: give --topic T"), noTopic.err());
            Cli.Run nothing = Cli.run("artifact", "get", "--topic", "files.none", "--bus", bus, "--timeout", "300");
            assertEquals(1, nothing.code(), nothing.all());
            assertTrue(nothing.err().startsWith("spectrum artifact get: "), nothing.err());
            try (Stream<Path> sealed = Files.list(Path.of(bus + ".store", "sealed"))) {
                assertEquals(1, sealed.count(), "the store holds the artifact");
            }
            // --duration ends the host: the bus tells its clients it is closing and removes its store's files
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(25);
            while (h.isAlive() && System.nanoTime() < end) {
                Thread.sleep(50);
            }
            assertEquals(0, h.exitCode(), out.toString());
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (svc.notices().stream().noneMatch(n -> n.toString().contains("reason")) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        List<BusFields> notices = svc.notices();
        svc.close();
        assertTrue(!notices.isEmpty(), "the service's client was told the bus is closing: " + out);
        assertTrue(out.contains("[host] host stopped"), "exit " + child.exitCode() + ": " + out);
        assertTrue(!Files.exists(Path.of(bus + ".store")), "the store the host made is gone, lock and all");
    }

    @Test
    @Timeout(value = 40, unit = TimeUnit.SECONDS)
    void aGrantsFileThatGrantsNoCallRefusesIt() throws Exception {
        Path socket = tmp.resolve("bus.sock");
        Path grants = tmp.resolve("grants.yaml");
        Files.writeString(grants, "# calc serves; everyone else may only look\n"
                + "anonymous:\n  subscribe: \"*\"\ncalc:\n  serve: calc.*\nops:\n  call: [calc.add]\n");
        List<String> out = new CopyOnWriteArrayList<>();
        try (ChildJvm h = host(List.of("--bus", socket.toString(), "--bus-grants", grants.toString()), out);
             BusClient svc = calculator(socket, "calc")) {
            assertTrue(out.stream().anyMatch(l -> l.startsWith("[host] bus: grants from " + grants)), out.toString());
            Cli.Run denied = Cli.run("call", "calc.add", "1", "1", "--bus", socket.toString());
            assertEquals(1, denied.code(), denied.all());
            assertTrue(denied.err().startsWith("spectrum call: NOT_AUTHORIZED: ") && denied.err().lines().count() == 1,
                    denied.err());
            Cli.Run named = Cli.run("call", "calc.add", "1", "1", "--bus", socket.toString(), "--name", "ops", "--json");
            assertEquals(0, named.code(), named.all());
            assertEquals("sum 2", ClientOutput.JSON.readTree(named.out()).get("outcome").asText());
            // SIGTERM, as Ctrl-C: the host stops, the bus tells its clients, the socket file goes
            ProcessHandle.of(h.pid()).orElseThrow().destroy();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while ((h.isAlive() || out.stream().noneMatch(l -> l.equals("[host] host stopped")))
                    && System.nanoTime() < end) {
                Thread.sleep(20);
            }
            assertTrue(out.contains("[host] host stopped"), out.toString());
            while (svc.notices().isEmpty() && System.nanoTime() < end) {
                Thread.sleep(20);
            }
            assertTrue(svc.notices().toString().contains("ROUTER_LOST"), svc.notices().toString());
            assertTrue(!Files.exists(socket), "the socket file is removed");
        }
    }

    @Test
    void aMalformedGrantsFileStopsTheHostWithOneLine() throws Exception {
        Path grants = tmp.resolve("grants.yaml");
        Files.writeString(grants, "anonymous:\n  shout: \"*\"\n");
        Cli.Run r = Cli.run("host", "--bus", tmp.resolve("bus.sock").toString(), "--bus-grants", grants.toString(),
                "--no-dashboard", "--lines");
        assertEquals(2, r.code(), r.all());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("spectrum host: cannot read the grants: " + grants + ": anonymous: unknown permission 'shout'"),
                r.err());
        Files.writeString(grants, "anonymous: [\n");
        Cli.Run yaml = Cli.run("host", "--bus", tmp.resolve("bus.sock").toString(), "--bus-grants", grants.toString(),
                "--no-dashboard", "--lines");
        assertEquals(2, yaml.code(), yaml.all());
        assertEquals(1, yaml.err().lines().count(), yaml.err());
        assertTrue(yaml.err().contains("not YAML"), yaml.err());
        assertTrue(!Files.exists(tmp.resolve("bus.sock")), "nothing is left listening");
    }

    @Test
    void theBusComesFromSpectrumBusWhenNotGiven() throws Exception {
        Path nobody = tmp.resolve("env.sock");
        Cli.Run r = Cli.exec(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                Cli.mainClasspathOption(), "io.spectrum.cli.SpectrumCommand", "services"),
                java.util.Map.of("SPECTRUM_BUS", nobody.toString()), tmp);
        assertEquals(2, r.code(), r.out());
        assertTrue(r.out().startsWith("spectrum services: ROUTER_LOST: no bus at " + nobody), r.out());
    }

    @Test
    void withoutABusTheCommandsSayHowToGetOne() {
        Cli.Run r = Cli.run("call", "calc.add", "--bus", tmp.resolve("nobody.sock").toString());
        assertEquals(2, r.code(), r.all());
        assertTrue(r.err().startsWith("spectrum call: ROUTER_LOST: no bus at ") && r.err().lines().count() == 1, r.err());
        Cli.Run s = Cli.run("services", "--bus", tmp.resolve("nobody.sock").toString(), "--json");
        assertEquals(2, s.code(), s.all());
        assertTrue(s.err().startsWith("{\"ok\":false,\"error\":\"ROUTER_LOST\""), s.err());
        Cli.Run none = Cli.run("services");
        assertEquals(2, none.code(), none.all());
        assertTrue(none.err().contains("give --bus PATH"), none.err());
        Cli.Run opts = Cli.run("host", "--bus-tcp", ":0");
        assertEquals(2, opts.code(), opts.all());
        Cli.Run remote = Cli.run("host", "--bus", tmp.resolve("b.sock").toString(), "--bus-tcp", "0.0.0.0:0",
                "--no-dashboard");
        assertEquals(2, remote.code(), remote.all());
        assertTrue(remote.err().contains("not a loopback address") && remote.err().contains("--bus-allow-remote"), remote.err());
        for (String n : new String[] {"0", "1025"}) {
            Cli.Run many = Cli.run("host", "--bus", tmp.resolve("b.sock").toString(), "--bus-max-clients", n, "--no-dashboard");
            assertEquals(2, many.code(), many.all());
            assertEquals("spectrum host: --bus-max-clients must be 1 to 1024", many.err().lines().findFirst().orElse(""),
                    many.err()); // one line, then the usual hint at --help
        }
    }
}
