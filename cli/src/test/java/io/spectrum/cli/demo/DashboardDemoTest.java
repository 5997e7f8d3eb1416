package io.spectrum.cli.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The demo's dashboard API end to end (the boards are their own JVMs): units on the values, the
 * host's history, and the LED write reaching the board, whose new value comes back to the host.
 */
class DashboardDemoTest {
    @TempDir
    Path tmp;

    private final ObjectMapper mapper = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theLedWriteReachesTheBoardAndValuesCarryUnitsAndHistory() throws Exception {
        DemoTest.Run run = new DemoTest.Run(List.of("--duration", "60", "--port", "0", "--lines",
                "--work-dir", tmp.resolve("work").toString()));
        try {
            run.awaitPrinted("dashboard: http://127.0.0.1:");
            String url = run.lines.stream().filter(l -> l.startsWith("dashboard: ")).findFirst().orElseThrow().substring(11).trim();
            JsonNode temp = await(() -> vertex(url, "/board1/temp"), v -> v.path("unit").asText().equals("°C"), "°C on /board1/temp");
            assertTrue(temp.get("value").asText().endsWith(" °C"), temp.toString());
            await(() -> vertex(url, "/board1/humidity"), v -> v.path("unit").asText().equals("%"), "% on /board1/humidity");
            JsonNode led = await(() -> vertex(url, "/board1/led"), v -> v.has("control"), "the LED's control");
            assertEquals("toggle", led.get("control").get("kind").asText());
            assertEquals("0", led.get("value").asText());

            HttpResponse<String> w = http.send(HttpRequest.newBuilder(URI.create(url + "api/write"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"path\":\"/board1/led\",\"value\":\"1\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, w.statusCode(), w.body());
            await(() -> vertex(url, "/board1/led"), v -> v.get("value").asText().equals("1"), "the board's LED is on");
            run.awaitPrinted("/board1/led = 1");

            JsonNode history = mapper.readTree(get(url + "api/history?window=60"));
            JsonNode samples = history.get("series").get("/board1/temp");
            assertTrue(samples.size() >= 2, "the host keeps the temperature's history: " + samples);
            double first = samples.get(0).get(1).asDouble();
            assertTrue(first > -50 && first < 100, "in °C, not raw: " + samples.get(0));
        } finally {
            run.kill();
        }
    }

    private JsonNode vertex(String url, String path) throws Exception {
        for (JsonNode v : mapper.readTree(get(url + "api/snapshot")).get("vertices")) {
            if (v.get("path").asText().equals(path)) {
                return v;
            }
        }
        return null;
    }

    private String get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    private interface Probe {
        JsonNode get() throws Exception;
    }

    /** Polls until the vertex is there and fits; the deadline only keeps a broken run from hanging. */
    private static JsonNode await(Probe probe, java.util.function.Predicate<JsonNode> fits, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            last = probe.get();
            if (last != null && fits.test(last)) {
                return last;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("never saw " + what + "; last " + last);
    }
}
