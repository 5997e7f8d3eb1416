package io.spectrum.host.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spectrum.host.view.BridgeView;
import io.spectrum.host.view.InMemoryHostModel;
import io.spectrum.host.view.RemoteHostView;
import io.spectrum.host.view.RemoteVertexView;
import io.spectrum.host.view.StubFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the dashboard shows beyond its node (issue 15): the MQTT bridge's state and counters and the
 * remote hosts from the broker are in {@code /api/snapshot}; without a bridge {@code "bridge"} is null
 * and so is {@code "remote"}; a remote change and a bridge counter change are pushed on the event stream.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DashboardFabricTest {
    private final ObjectMapper mapper = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();

    static RemoteHostView lab(String temp, boolean online) {
        return new RemoteHostView("lab", true, online, List.of(
                new RemoteVertexView("/lab/board1/temp", "board1", temp, "°C", 41, false, "lab", "2026-12-01T19:00:00Z"),
                new RemoteVertexView("/lab/board1/name", "board1", "garage", "", -1, true, "lab", "")));
    }

    @Test
    void snapshotCarriesTheBridgeAndTheRemoteHosts() throws Exception {
        InMemoryHostModel model = new InMemoryHostModel("plant1");
        model.publish("/board1/temp", "21.5");
        StubFabric fabric = new StubFabric();
        fabric.bridge(new BridgeView("mqtt://127.0.0.1:1883", false, 120, 10_000, 7, 40, 3_400, 2, 3_527));
        fabric.remote(true, List.of(lab("23.28 °C", true)));
        try (DashboardServer dash = new DashboardServer(model, fabric, new InetSocketAddress("127.0.0.1", 0), 0)) {
            JsonNode s = snapshot(dash);
            JsonNode b = s.get("bridge");
            assertEquals("mqtt://127.0.0.1:1883", b.get("broker").asText());
            assertEquals(false, b.get("connected").asBoolean());
            assertEquals("disconnected", b.get("state").asText());
            assertEquals(120, b.get("in_use").asInt());
            assertEquals(10_000, b.get("capacity").asInt());
            assertEquals(7, b.get("dropped").asLong());
            assertEquals(40, b.get("coalesced").asLong());
            assertEquals(3_400, b.get("published").asLong());
            assertEquals(2, b.get("reconnects").asLong());
            JsonNode remote = s.get("remote");
            assertEquals("mqtt://127.0.0.1:1883", remote.get("broker").asText());
            assertTrue(remote.get("connected").asBoolean());
            assertEquals(10_000, remote.get("capacity").asInt());
            assertEquals(0, remote.get("refused").asLong());
            JsonNode lab = remote.get("hosts").get(0);
            assertEquals("lab", lab.get("host").asText());
            assertEquals("online", lab.get("state").asText());
            assertTrue(lab.get("online").asBoolean());
            JsonNode temp = lab.get("vertices").get(0);
            assertEquals("/lab/board1/temp", temp.get("path").asText());
            assertEquals("23.28 °C", temp.get("value").asText());
            assertEquals("°C", temp.get("unit").asText());
            assertEquals(41, temp.get("seq").asLong());
            assertEquals("lab", temp.get("publisher").asText());
            JsonNode name = lab.get("vertices").get(1);
            assertTrue(name.get("seq").isNull(), "no seq in the payload: null, not 0");
            assertTrue(name.get("stale").asBoolean());
            assertEquals("/board1/temp", s.get("vertices").get(0).get("path").asText(), "the host's own tree is still there");
        }
    }

    @Test
    void withoutABridgeThereIsNone() throws Exception {
        try (DashboardServer dash = new DashboardServer(new InMemoryHostModel("h"), new InetSocketAddress("127.0.0.1", 0), 0)) {
            JsonNode s = snapshot(dash);
            assertTrue(s.has("bridge") && s.get("bridge").isNull(), s.toString());
            assertTrue(s.has("remote") && s.get("remote").isNull(), s.toString());
        }
    }

    @Test
    void remoteChangesAndBridgeCountersArePushed() throws Exception {
        InMemoryHostModel model = new InMemoryHostModel("plant1");
        StubFabric fabric = new StubFabric();
        fabric.bridge(new BridgeView("mqtt://127.0.0.1:1883", true, 0, 100, 0, 0, 1, 0, 1));
        try (DashboardServer dash = new DashboardServer(model, fabric, new InetSocketAddress("127.0.0.1", 0), 0)) {
            HttpResponse<java.io.InputStream> r = http.send(HttpRequest.newBuilder(URI.create(dash.url() + "api/events")).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
                next(in); // the first snapshot
                fabric.remote(true, List.of(lab("19.99 °C", false)));
                JsonNode pushed = awaitEvent(in, s -> !s.get("remote").isNull());
                JsonNode lab = pushed.get("remote").get("hosts").get(0);
                assertEquals("offline", lab.get("state").asText());
                assertEquals("19.99 °C", lab.get("vertices").get(0).get("value").asText());
                fabric.remote(false, List.of(lab("19.99 °C", false)));
                assertFalse(awaitEvent(in, s -> !s.get("remote").get("connected").asBoolean()).get("remote").get("connected")
                        .asBoolean(), "the view lost the broker: pushed, the last known hosts kept");
                // nothing else changes: the bridge's drop counter alone is pushed (polled once a second)
                fabric.bridge(new BridgeView("mqtt://127.0.0.1:1883", false, 100, 100, 5, 0, 1, 0, 106));
                JsonNode dropped = awaitEvent(in, s -> s.get("bridge").get("dropped").asLong() == 5);
                assertEquals("disconnected", dropped.get("bridge").get("state").asText());
            }
        }
    }

    private JsonNode awaitEvent(BufferedReader in, java.util.function.Predicate<JsonNode> done) throws Exception {
        while (true) {
            JsonNode s = next(in);
            if (done.test(s)) {
                return s;
            }
        }
    }

    private JsonNode next(BufferedReader in) throws Exception {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.startsWith("data: ")) {
                return mapper.readTree(line.substring("data: ".length()));
            }
        }
        throw new AssertionError("the event stream ended");
    }

    private JsonNode snapshot(DashboardServer dash) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(dash.url() + "api/snapshot")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
        return mapper.readTree(r.body());
    }
}
