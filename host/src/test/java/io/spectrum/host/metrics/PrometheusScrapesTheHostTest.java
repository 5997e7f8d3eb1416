package io.spectrum.host.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spectrum.testing.Tools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real Prometheus server (Debian's {@code prometheus}; skipped, naming why, where it is not installed)
 * scrapes a host's {@code /metrics} on a loopback port every second, and a board's temperature is read
 * back through Prometheus's query API with its labels; every query of the Grafana dashboard shipped in
 * docs/grafana/spectrum.json is valid PromQL there, and its board panels have data.
 */
class PrometheusScrapesTheHostTest {
    @TempDir
    Path tmp;

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void prometheusScrapesABoardsTemperatureFromTheHost() throws Exception {
        Path prometheus = Tools.require("prometheus", "prometheus", "a real Prometheus server scrapes the host's /metrics");
        try (MetricsFixture f = new MetricsFixture()) {
            f.awaitLine("spectrum_value{board=\"board1\",path=\"/board1/temp\",unit=\"°C\"} 23.28");
            int web = freePort();
            Path config = tmp.resolve("prometheus.yml");
            Files.writeString(config, String.join("\n",
                    "global:",
                    "  scrape_interval: 1s",
                    "  evaluation_interval: 1s",
                    "scrape_configs:",
                    "  - job_name: spectrum",
                    "    scrape_interval: 1s",
                    "    scrape_timeout: 1s",
                    "    static_configs:",
                    "      - targets: ['127.0.0.1:" + f.host.metrics().address().getPort() + "']",
                    ""));
            Path log = tmp.resolve("prometheus.log");
            Process p = new ProcessBuilder(prometheus.toString(), "--config.file=" + config,
                    "--storage.tsdb.path=" + tmp.resolve("data"), "--web.listen-address=127.0.0.1:" + web)
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
                String query = "spectrum_value{path=\"/board1/temp\"}";
                URI uri = URI.create("http://127.0.0.1:" + web + "/api/v1/query?query="
                        + URLEncoder.encode(query, StandardCharsets.UTF_8));
                ObjectMapper json = new ObjectMapper();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
                String last = "(no answer)";
                JsonNode sample = null;
                while (sample == null && System.nanoTime() < deadline && p.isAlive()) {
                    f.host.tick(); // the host keeps holding the board's values, as spectrum host does each second
                    try {
                        HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                                HttpResponse.BodyHandlers.ofString());
                        last = r.body();
                        JsonNode result = json.readTree(last).path("data").path("result");
                        if (result.size() > 0) {
                            sample = result.get(0);
                        }
                    } catch (java.io.IOException notYet) {
                        last = notYet.toString(); // Prometheus is still starting
                    }
                    if (sample == null) {
                        Thread.sleep(250);
                    }
                }
                if (sample == null) {
                    throw new AssertionError("Prometheus never had " + query + "; last answer: " + last
                            + (p.isAlive() ? "" : "; it exited " + p.exitValue()) + "\n" + Files.readString(log));
                }
                JsonNode metric = sample.path("metric");
                assertEquals("spectrum_value", metric.path("__name__").asText(), sample.toString());
                assertEquals("board1", metric.path("board").asText(), sample.toString());
                assertEquals("°C", metric.path("unit").asText(), sample.toString());
                assertEquals("spectrum", metric.path("job").asText(), sample.toString());
                assertEquals(23.28, Double.parseDouble(sample.path("value").get(1).asText()), 1e-9, sample.toString());

                // every query of the shipped Grafana dashboard is valid PromQL here, and its board panels have data
                JsonNode dashboard = json.readTree(grafanaDashboard().toFile());
                for (JsonNode panel : dashboard.path("panels")) {
                    for (JsonNode target : panel.path("targets")) {
                        String expr = target.path("expr").asText().replace("$board", ".*").replace("$__rate_interval", "1m");
                        JsonNode answer = json.readTree(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + web
                                + "/api/v1/query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8)))
                                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString()).body());
                        String title = panel.path("title").asText();
                        assertEquals("success", answer.path("status").asText(), title + ": " + expr + " -> " + answer);
                        if (java.util.List.of("Temperature", "Humidity", "Counter", "LED", "Stale values per board",
                                "Board links", "Node tables in use").contains(title)) {
                            assertTrue(answer.path("data").path("result").size() > 0, title + ": " + expr + " -> " + answer);
                        }
                    }
                }
            } finally {
                p.destroy(); // only the server this test started
                if (!p.waitFor(20, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        }
    }

    /** docs/grafana/spectrum.json, from the reactor root Surefire names. */
    private static Path grafanaDashboard() {
        String root = System.getProperty("spectrum.root");
        Path base = root == null ? Path.of("..") : Path.of(root);
        return base.resolve("docs/grafana/spectrum.json");
    }

    private static int freePort() throws java.io.IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
