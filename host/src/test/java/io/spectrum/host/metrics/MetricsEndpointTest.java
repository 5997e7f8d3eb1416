package io.spectrum.host.metrics;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code /metrics} of a real host with a board (docs/host.md, "Metrics"), scraped over loopback: the
 * board's values as {@code spectrum_value} with their board, path and unit, a board gone away marked
 * stale, the node's, link's counters in the resource vocabulary; and a listener that serves
 * {@code GET /metrics} and nothing else.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class MetricsEndpointTest {
    private static final String TEMP = "{board=\"board1\",path=\"/board1/temp\",unit=\"°C\"}";

    @Test
    void aScrapeShowsTheBoardsValuesWithLabelsTheCountersAndAStaleBoardMarkedStale() throws Exception {
        try (MetricsFixture f = new MetricsFixture()) {
            final String text0 = f.awaitLine("spectrum_value" + TEMP + " 23.28");
            String text = text0;
            assertTrue(text.contains("# TYPE spectrum_value gauge"), text);
            assertTrue(text.lines().anyMatch(("spectrum_value_stale" + TEMP + " 0.0")::equals), text);
            // its origin: the host's clock when the value arrived, in seconds (its age is time() minus it)
            double origin = text0.lines().filter(l -> l.startsWith("spectrum_value_origin_timestamp_seconds" + TEMP + " "))
                    .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).findFirst()
                    .orElseThrow(() -> new AssertionError("no origin for the temperature:\n" + text0));
            assertTrue(origin >= f.startedMillis / 1000.0 - 1 && origin <= System.currentTimeMillis() / 1000.0 + 1,
                    origin + " s is not between the fixture's start and now");
            f.awaitLine("spectrum_value{board=\"board1\",path=\"/board1/humidity\",unit=\"%\"} 48.3");
            f.awaitLine("spectrum_value{board=\"board1\",path=\"/board1/counter\",unit=\"\"} 7.0");
            // the node's tables, the board link's traffic and peer-less counters, in the resource vocabulary
            assertTrue(text.contains("spectrum_resource_capacity{board=\"\",resource=\"wide.vertices\",scope=\"node\",source=\"host\"} 4096.0"), text);
            assertTrue(text.contains("# TYPE spectrum_resource_refused_total counter"), text);
            assertTrue(text.lines().anyMatch(l -> l.startsWith("spectrum_events_total{board=\"board1\",counter=\"frames_in\",resource=\"link\",scope=\"link\"")), text);
            assertTrue(text.lines().anyMatch(l -> l.startsWith("spectrum_resource_dropped_total{board=\"board1\",counter=\"dropped_corrupt\",resource=\"link\",scope=\"link\"")), text);
            assertTrue(text.lines().anyMatch(l -> l.startsWith("spectrum_up{board=\"board1\",scope=\"link\"") && l.endsWith(" 1.0")), text);
            // a new value comes through
            f.board.write("/temp", MetricsFixture.value(2400, 2));
            f.awaitLine("spectrum_value" + TEMP + " 24.0");

            f.board.close(); // the board goes away: its last value stays, marked stale
            text = f.awaitLine("spectrum_value_stale" + TEMP + " 1.0");
            assertTrue(text.lines().anyMatch(("spectrum_value" + TEMP + " 24.0")::equals), text);
            assertTrue(text.lines().anyMatch(l -> l.startsWith("spectrum_up{board=\"board1\",scope=\"link\"") && l.endsWith(" 0.0")), text);
        }
    }

    @Test
    void aScraperIsAViewOfEveryBoardValueAndNothingIsSubscribedWithoutOne() throws Exception {
        try (MetricsFixture f = new MetricsFixture()) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!f.host.runtime().boardVertices().containsKey("/board1/temp") && System.nanoTime() < deadline) {
                f.host.tick();
                Thread.sleep(50);
            }
            f.host.tick();
            assertTrue(f.host.runtime().boardVertices().containsKey("/board1/temp"), "the walk found the board");
            assertEquals(java.util.Map.of(), f.host.runtime().upstreamEdges(), "nobody scraped: nothing held from the board");
            f.awaitLine("spectrum_value" + TEMP + " 23.28"); // scraped: the next tick holds every board value
            assertTrue(f.host.runtime().upstreamEdges().containsKey("/board1/temp"), f.host.runtime().upstreamEdges().toString());
        }
    }

    @Test
    void aScraperSilentPastItsTimeIsForgotten() throws Exception {
        io.spectrum.time.ManualClock clock = new io.spectrum.time.ManualClock(0);
        SnapshotModel model = new SnapshotModel(() -> new io.spectrum.host.view.HostSnapshot("h", 1,
                java.util.List.of(), java.util.List.of()), clock);
        try (MetricsServer server = MetricsServer.start(new java.net.InetSocketAddress("127.0.0.1", 0), model,
                io.spectrum.host.view.FabricView.NONE)) {
            assertFalse(server.scrapedWithin(MetricsServer.SCRAPER_TTL_NANOS), "nobody asked yet");
            java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
            java.net.URI uri = java.net.URI.create(server.url());
            assertEquals(200, http.send(java.net.http.HttpRequest.newBuilder(uri).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode());
            assertTrue(server.scrapedWithin(MetricsServer.SCRAPER_TTL_NANOS));
            clock.advanceNanos(MetricsServer.SCRAPER_TTL_NANOS + 1);
            assertFalse(server.scrapedWithin(MetricsServer.SCRAPER_TTL_NANOS), "silent past the time: forgotten");
            assertEquals(405, http.send(java.net.http.HttpRequest.newBuilder(uri)
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString())
                    .statusCode());
            assertFalse(server.scrapedWithin(MetricsServer.SCRAPER_TTL_NANOS), "a refused request is no scrape");
        }
    }

    @Test
    void aScrapeAnswersWhileTheNodeThreadIsBusy() throws Exception {
        try (MetricsFixture f = new MetricsFixture()) {
            f.awaitLine("spectrum_value" + TEMP + " 23.28");
            java.util.concurrent.CountDownLatch busy = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
            Thread hog = new Thread(() -> f.host.runtime().onNodeThread(() -> {
                busy.countDown();
                return release.await(60, TimeUnit.SECONDS); // the node thread does nothing else meanwhile
            }), "node-thread-hog");
            hog.start();
            try {
                assertTrue(busy.await(30, TimeUnit.SECONDS), "the node thread took the task");
                String text = f.scrape(); // answered from the last snapshot, not by asking the node thread
                assertTrue(text.lines().anyMatch(("spectrum_value" + TEMP + " 23.28")::equals), text);
            } finally {
                release.countDown();
                hog.join(30_000);
            }
        }
    }

    @Test
    void theMetricsListenerServesGetMetricsOnlyAndWritesNothing() throws Exception {
        try (MetricsFixture f = new MetricsFixture()) {
            f.awaitLine("spectrum_value{board=\"board1\",path=\"/board1/led\",unit=\"\"} 0.0");
            for (String method : new String[] {"POST", "PUT", "DELETE", "PATCH", "HEAD"}) {
                HttpResponse<String> r = f.send(method, "/metrics", method.equals("HEAD") ? null : "x");
                assertEquals(405, r.statusCode(), method + " /metrics");
                assertEquals("GET", r.headers().firstValue("Allow").orElse(""), method + " /metrics");
            }
            for (String path : new String[] {"/", "/api/snapshot", "/api/metrics", "/metrics/x", "/-/healthy", "/prometheus"}) {
                assertEquals(404, f.send("GET", path, null).statusCode(), "GET " + path);
            }
            // the dashboard's write path is not here: the LED stays as it was
            assertEquals(404, f.send("POST", "/api/write", "{\"path\":\"/board1/led\",\"value\":\"1\"}").statusCode());
            assertEquals(404, f.send("POST", "/api/subscribers/clear", "{\"path\":\"/board1/led\",\"slot\":0}").statusCode());
            f.awaitLine("spectrum_value{board=\"board1\",path=\"/board1/led\",unit=\"\"} 0.0");
            assertEquals(0, f.board.node().read(io.spectrum.node.api.NodePath.of("/led"), new byte[16], 0, 16) > 0
                    ? 0 : 1, "the board still holds its LED value");
        }
    }
}
