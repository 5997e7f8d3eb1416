package io.spectrum.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spectrum.board.Board;
import io.spectrum.bridge.Mosquitto;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 15's dashboard against a real Mosquitto: {@code spectrum host --mqtt URL --mqtt-view} with one
 * emulated board, and another host ({@code spectrum bridge --name lab}) bridged to the same broker.
 * The host's {@code /api/snapshot} carries its bridge's state and counters and lab's tree read from
 * the broker (not its own, which is its node's); the broker killed: the bridge says disconnected and
 * its bounded queue drops the oldest, counted; back: one reconnect, and lab's tree is read again;
 * lab stopped: its {@code $online} turns false on the page's data.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class MqttDashboardTest {
    private final ObjectMapper mapper = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void theSnapshotShowsTheBridgeAndTheOtherHostFromTheBroker() throws Exception {
        try (Mosquitto broker = Mosquitto.start(); Board b1 = MqttCommandsTest.board("kitchen");
             Board b2 = MqttCommandsTest.board("garage")) {
            int port;
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort();
            }
            Thread host = MqttCommandsTest.background("host", "--peer", MqttCommandsTest.addr(b1), "--name", "plant1",
                    "--lines", "--port", String.valueOf(port), "--mqtt", broker.url(), "--mqtt-view", "--mqtt-queue", "5",
                    "--duration", "150");
            Thread lab = MqttCommandsTest.background("bridge", "--peer", MqttCommandsTest.addr(b2), "--name", "lab",
                    "--mqtt", broker.url(), "--duration", "150");
            String url = "http://127.0.0.1:" + port + "/api/snapshot";
            try {
                // the bridge's counters and lab's tree, live from the broker
                JsonNode s = until(url, j -> j.path("bridge").path("connected").asBoolean()
                        && j.path("bridge").path("published").asLong() > 0
                        && remoteValue(j, "lab", "/lab/temp").matches("-?[0-9.]+ °C")
                        && remoteValue(j, "lab", "/lab/name").equals("garage")
                        && remote(j, "lab").path("online").asBoolean(false), "the bridge connected and lab's tree");
                JsonNode b = s.get("bridge");
                assertEquals(broker.url(), b.get("broker").asText());
                assertEquals(5, b.get("capacity").asInt());
                assertEquals(0, b.get("reconnects").asLong());
                assertEquals("online", remote(s, "lab").get("state").asText());
                assertTrue(s.get("remote").get("connected").asBoolean());
                assertEquals(broker.url(), s.get("remote").get("broker").asText());
                assertTrue(remote(s, "plant1").isMissingNode(), "the host's own tree is its node's, not the broker's: " + s.get("remote"));
                JsonNode temp = vertex(s, "lab", "/lab/temp");
                assertEquals("lab", temp.get("publisher").asText());
                assertEquals("°C", temp.get("unit").asText());
                assertTrue(temp.get("seq").asLong() > 0, temp.toString());
                // a remote value follows the broker live
                JsonNode counter1 = vertex(until(url, j -> !vertex(j, "lab", "/lab/counter").isMissingNode(),
                        "lab's counter"), "lab", "/lab/counter");
                until(url, j -> vertex(j, "lab", "/lab/counter").path("seq").asLong() > counter1.get("seq").asLong(),
                        "lab's counter seq growing");

                // the broker gone: disconnected, the queue of 5 full; what cannot wait is counted: an unsent
                // state replaced by a newer one of its topic (coalesced) or, past the bound, the oldest dropped
                broker.kill();
                JsonNode down = until(url, j -> !j.path("bridge").path("connected").asBoolean(true)
                        && j.path("bridge").path("dropped").asLong() + j.path("bridge").path("coalesced").asLong() > 0,
                        "the bridge disconnected and coalescing or dropping");
                assertEquals("disconnected", down.get("bridge").get("state").asText());
                assertTrue(down.get("bridge").get("in_use").asInt() <= 5, down.get("bridge").toString());
                JsonNode viewDown = until(url, j -> !j.path("remote").path("connected").asBoolean(true), "the view lost the broker");
                assertFalse(remote(viewDown, "lab").isMissingNode(), "the last known hosts are kept while the broker is away");
                // back: one reconnect, and the other host is read from the broker again
                broker.restart();
                JsonNode back = until(url, j -> j.path("bridge").path("connected").asBoolean()
                        && j.path("bridge").path("reconnects").asLong() == 1, "the bridge reconnected");
                assertTrue(back.get("bridge").get("dropped").asLong() >= down.get("bridge").get("dropped").asLong());
                long restartedCounter = vertex(back, "lab", "/lab/counter").path("seq").asLong();
                until(url, j -> vertex(j, "lab", "/lab/counter").path("seq").asLong() > restartedCounter,
                        "lab's values arriving again after the broker's restart");

                // lab stops: its $online turns false
                lab.interrupt();
                JsonNode gone = until(url, j -> remote(j, "lab").path("state").asText().equals("offline"), "lab offline");
                assertFalse(remote(gone, "lab").get("online").asBoolean());
            } finally {
                host.interrupt();
                lab.interrupt();
            }
        }
    }

    @Test
    void mqttViewNeedsTheBrokerAndTheDashboard() {
        Cli.Run alone = Cli.run("host", "--udp", "127.0.0.1:0", "--mqtt-view", "--duration", "1");
        assertEquals(2, alone.code(), alone.all());
        assertTrue(alone.err().contains("--mqtt-view reads the broker of --mqtt URL; give --mqtt too"), alone.err());
        Cli.Run blind = Cli.run("host", "--udp", "127.0.0.1:0", "--mqtt", "mqtt://127.0.0.1:1", "--mqtt-view",
                "--no-dashboard", "--duration", "1");
        assertEquals(2, blind.code(), blind.all());
        assertTrue(blind.err().contains("it does nothing with --no-dashboard"), blind.err());
    }

    private static JsonNode remote(JsonNode snapshot, String host) {
        for (JsonNode h : snapshot.path("remote").path("hosts")) {
            if (h.path("host").asText().equals(host)) {
                return h;
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    private static JsonNode vertex(JsonNode snapshot, String host, String path) {
        for (JsonNode v : remote(snapshot, host).path("vertices")) {
            if (v.path("path").asText().equals(path)) {
                return v;
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    private static String remoteValue(JsonNode snapshot, String host, String path) {
        return vertex(snapshot, host, path).path("value").asText("");
    }

    /** Reads the snapshot until {@code done}; the 60 s deadline only keeps a broken run from hanging. */
    private JsonNode until(String url, Predicate<JsonNode> done, String what) throws Exception {
        JsonNode last = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    last = mapper.readTree(r.body());
                    if (done.test(last)) {
                        return last;
                    }
                }
            } catch (java.io.IOException e) {
                // the dashboard is not up yet
            }
            Thread.sleep(200);
        }
        fail(what + " did not show within 60 s; last snapshot's bridge and remote: "
                + (last == null ? "none" : last.get("bridge") + " " + last.get("remote")));
        return last;
    }
}
