package io.spectrum.host.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spectrum.host.view.InMemoryHostModel;
import io.spectrum.host.view.LinkView;
import io.spectrum.host.view.VertexControl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DashboardApiTest {
    private final ObjectMapper mapper = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();
    private InMemoryHostModel model;
    private DashboardServer dash;

    @BeforeEach
    void start() throws Exception {
        model = new InMemoryHostModel("api-test");
        model.publish("/b1/temp", "21.5");
        model.publish("/b1/name", "kitchen");
        model.subscribe("/b1/temp", "udp:10.0.0.2:4000", "peer#3");
        Map<String, Long> counters = new LinkedHashMap<>();
        counters.put("frames_in", 7L);
        counters.put("frames_out", 3L);
        model.putLink(new LinkView("udp 127.0.0.1:7700", true, counters));
        model.markStale("/b1/name", true);
        dash = new DashboardServer(model, new InetSocketAddress("127.0.0.1", 0), 0);
    }

    @AfterEach
    void stop() {
        dash.close();
    }

    @Test
    void pageAndScriptAreServed() throws Exception {
        HttpResponse<String> page = get("");
        assertEquals(200, page.statusCode());
        assertTrue(page.body().contains("<script src=\"app.js\">"));
        assertEquals(200, get("app.js").statusCode());
        assertEquals(200, get("style.css").statusCode());
        assertEquals(404, get("../pom.xml").statusCode());
        assertEquals(404, get("secret.txt").statusCode());
    }

    @Test
    void snapshotHasVerticesSubscribersStaleAndLinks() throws Exception {
        HttpResponse<String> r = get("api/snapshot");
        assertEquals(200, r.statusCode());
        JsonNode s = mapper.readTree(r.body());
        assertEquals("api-test", s.get("node").asText());
        JsonNode name = s.get("vertices").get(0);
        assertEquals("/b1/name", name.get("path").asText());
        assertTrue(name.get("stale").asBoolean());
        assertFalse(name.get("numeric").asBoolean());
        JsonNode temp = s.get("vertices").get(1);
        assertEquals("/b1/temp", temp.get("path").asText());
        assertEquals(21.5, temp.get("number").asDouble());
        assertEquals(1, temp.get("seq").asLong());
        JsonNode sub = temp.get("subscribers").get(0);
        assertEquals(0, sub.get("slot").asInt());
        assertEquals("udp:10.0.0.2:4000", sub.get("holder").asText());
        assertEquals("delivering", sub.get("state").asText());
        assertFalse(temp.has("unit"), "an undeclared vertex has no unit");
        JsonNode link = s.get("links").get(0);
        assertTrue(link.get("up").asBoolean());
        assertEquals(7, link.get("counters").get("frames_in").asLong());
    }

    @Test
    void aDeclaredVertexCarriesItsUnit() throws Exception {
        model.publish("/b1/humidity", "48.3", "%");
        JsonNode s = mapper.readTree(get("api/snapshot").body());
        JsonNode h = s.get("vertices").get(0);
        assertEquals("/b1/humidity", h.get("path").asText());
        assertEquals("48.3 %", h.get("value").asText());
        assertEquals(48.3, h.get("number").asDouble());
        assertEquals("%", h.get("unit").asText());
    }

    @Test
    void actionsGoThroughTheModelAndRefusalsAreTyped() throws Exception {
        HttpResponse<String> ok = post("suspend", "{\"path\":\"/b1/temp\",\"slot\":0}", "application/json");
        assertEquals(200, ok.statusCode(), ok.body());
        assertEquals(List.of("suspend /b1/temp 0"), model.actions());
        assertTrue(model.snapshot().vertices().get(1).subscribers().get(0).suspended());

        HttpResponse<String> missing = post("resume", "{\"path\":\"/b1/temp\",\"slot\":5}", "application/json");
        assertEquals(404, missing.statusCode());
        assertEquals("tr::path::not_found", mapper.readTree(missing.body()).get("error").asText());

        assertEquals(415, post("suspend", "path=/b1/temp&slot=0", "application/x-www-form-urlencoded").statusCode());
        assertEquals(400, post("suspend", "{not json", "application/json").statusCode());
        assertEquals(400, post("suspend", "{\"path\":\"/b1/temp\",\"slot\":\"x\"}", "application/json").statusCode());
        assertEquals(404, post("explode", "{\"path\":\"/b1/temp\",\"slot\":0}", "application/json").statusCode());
        assertEquals(405, get("api/subscribers/suspend").statusCode());
        // none of the refusals changed anything
        assertEquals(List.of("suspend /b1/temp 0"), model.actions());

        assertEquals(200, post("clear", "{\"path\":\"/b1/temp\",\"slot\":0}", "application/json").statusCode());
        assertTrue(model.snapshot().vertices().get(1).subscribers().isEmpty());
    }

    @Test
    void historyIsKeptByTheHostForEveryPageThatAsks() throws Exception {
        long now = System.currentTimeMillis();
        model.recordAt("/b1/hum", now - 20 * 60_000L, 10.0); // older than the longest window: dropped
        model.recordAt("/b1/hum", now - 2 * 60_000L, 40.0);
        model.recordAt("/b1/hum", now - 1_000L, 41.0);
        model.publish("/b1/temp", "22.0");
        JsonNode all = mapper.readTree(get("api/history").body());
        assertEquals(900_000, all.get("window").asLong());
        JsonNode hum = all.get("series").get("/b1/hum");
        assertEquals(2, hum.size(), hum.toString());
        assertEquals(40.0, hum.get(0).get(1).asDouble());
        assertEquals(41.0, hum.get(1).get(1).asDouble());
        JsonNode temp = all.get("series").get("/b1/temp");
        assertEquals(List.of(21.5, 22.0), List.of(temp.get(0).get(1).asDouble(), temp.get(1).get(1).asDouble()));
        assertEquals(2, temp.get(1).get(2).asLong(), "each sample carries the seq it had");
        assertFalse(all.get("series").has("/b1/name"), "text has no chart");

        JsonNode minute = mapper.readTree(get("api/history?window=60").body()); // a second page, a shorter window
        assertEquals(1, minute.get("series").get("/b1/hum").size());
        assertEquals(41.0, minute.get("series").get("/b1/hum").get(0).get(1).asDouble());
        assertEquals(400, get("api/history?window=soon").statusCode());
        assertEquals(400, get("api/history?window=0").statusCode());
    }

    @Test
    void writesGoThroughTheModelByTheDeclarationAndRefusalsAreOneLine() throws Exception {
        model.publish("/b1/led", "0");
        model.writable("/b1/led", new VertexControl("toggle", 0, 1, 1, ""));
        JsonNode s = mapper.readTree(get("api/snapshot").body());
        JsonNode led = s.get("vertices").get(0);
        assertEquals("/b1/led", led.get("path").asText());
        assertEquals("b1", led.get("board").asText());
        assertEquals("toggle", led.get("control").get("kind").asText());
        assertEquals(1.0, led.get("control").get("max").asDouble());
        assertFalse(s.get("vertices").get(2).has("control"), "a vertex without the WRITE right has no control");

        HttpResponse<String> ok = write("{\"path\":\"/b1/led\",\"value\":\"1\"}", "application/json");
        assertEquals(200, ok.statusCode(), ok.body());
        assertTrue(mapper.readTree(ok.body()).get("ok").asBoolean());
        assertEquals("1", model.snapshot().vertices().get(0).value());
        assertEquals(200, write("{\"path\":\"/b1/led\",\"value\":false}", "application/json").statusCode());
        assertEquals("0", model.snapshot().vertices().get(0).value());

        HttpResponse<String> range = write("{\"path\":\"/b1/led\",\"value\":\"5\"}", "application/json");
        assertEquals(400, range.statusCode());
        JsonNode r = mapper.readTree(range.body());
        assertEquals("tr::schema::type_mismatch", r.get("error").asText());
        assertTrue(r.get("message").asText().startsWith("'5' is out of range"), r.toString());
        HttpResponse<String> ro = write("{\"path\":\"/b1/temp\",\"value\":\"3\"}", "application/json");
        assertEquals(403, ro.statusCode());
        assertEquals("/b1/temp is declared read-only", mapper.readTree(ro.body()).get("message").asText());
        assertEquals(415, write("path=/b1/led&value=1", "application/x-www-form-urlencoded").statusCode());
        assertEquals(400, write("{\"path\":\"/b1/led\"}", "application/json").statusCode());
        assertEquals(400, write("[1]", "application/json").statusCode());
        assertEquals(405, get("api/write").statusCode());
        assertEquals(List.of("write /b1/led 1", "write /b1/led 0"), model.actions(), "refusals wrote nothing");
    }

    @Test
    void linksCarryTheirBoardAndAListenerWithoutClientsIsListening() throws Exception {
        model.putLink(new LinkView("serial /dev/pts/4", false, Map.of("frames_in", 1L), "board1", false));
        model.putLink(new LinkView("udp 127.0.0.1:7701", false, Map.of("frames_in", 0L), "", true));
        JsonNode links = mapper.readTree(get("api/snapshot").body()).get("links");
        assertEquals("up", links.get(0).get("state").asText());
        assertEquals("board1", links.get(1).get("board").asText());
        assertEquals("down", links.get(1).get("state").asText());
        assertEquals("listening", links.get(2).get("state").asText());
        assertTrue(links.get(2).get("listener").asBoolean());
    }

    @Test
    void eventStreamPushesAChange() throws Exception {
        HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(URI.create(dash.url() + "api/events")).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, r.statusCode());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
        try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            JsonNode first = nextSnapshot(in); // the current state on connect
            assertEquals("21.5", first.get("vertices").get(1).get("value").asText());
            model.publish("/b1/temp", "22.75");
            JsonNode s = nextSnapshot(in);
            while (!"22.75".equals(s.get("vertices").get(1).get("value").asText())) {
                s = nextSnapshot(in);
            }
            assertEquals(2, s.get("vertices").get(1).get("seq").asLong());
        }
    }

    private JsonNode nextSnapshot(BufferedReader in) throws Exception {
        String line;
        boolean snapshot = false;
        while ((line = in.readLine()) != null) {
            if (line.equals("event: snapshot")) {
                snapshot = true;
            } else if (snapshot && line.startsWith("data: ")) {
                return mapper.readTree(line.substring(6));
            }
        }
        throw new AssertionError("stream ended");
    }

    private HttpResponse<String> get(String rel) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(dash.url() + rel)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> write(String body, String type) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(dash.url() + "api/write"))
                .header("Content-Type", type)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String action, String body, String type) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(dash.url() + "api/subscribers/" + action))
                .header("Content-Type", type)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
