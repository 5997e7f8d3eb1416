package io.spectrum.host.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.prometheus.metrics.exporter.httpserver.MetricsHandler;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.spectrum.host.view.FabricView;
import io.spectrum.host.view.HostModel;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The host's Prometheus listener: {@code GET /metrics} and nothing else (docs/host.md, "Metrics").
 * It is a listener of its own, apart from the dashboard (whose server can write to boards), so a
 * Prometheus on another machine can be let in to scrape without reaching anything that writes:
 * every other path is 404, every other method on {@code /metrics} 405, and no request body is read.
 * The answer is rendered by Prometheus's client library (its scrape handler: text or OpenMetrics by
 * the {@code Accept} header, gzip when asked) from {@link HostMetrics}.
 */
public final class MetricsServer implements AutoCloseable {
    /** The path Prometheus scrapes by default; the only one served. */
    public static final String PATH = "/metrics";
    /**
     * A scraper is a view of every board value ({@link #scrapedWithin}) until it has been silent this
     * long: longer than any usual scrape interval (Prometheus's default is 1 min).
     */
    public static final long SCRAPER_TTL_NANOS = java.util.concurrent.TimeUnit.MINUTES.toNanos(5);

    private final HttpServer server;
    private final ExecutorService executor;
    private final io.spectrum.time.Clock clock;
    /** When {@code GET /metrics} was last asked (the model's clock), or {@link #NEVER}. */
    private volatile long lastScrape;
    private static final long NEVER = Long.MIN_VALUE;

    private MetricsServer(HttpServer server, ExecutorService executor, io.spectrum.time.Clock clock) {
        this.server = server;
        this.executor = executor;
        this.clock = clock;
        this.lastScrape = NEVER;
    }

    /**
     * Binds {@code at} and serves {@code model}'s and {@code fabric}'s metrics there.
     *
     * @throws IOException the address cannot be bound (in use, not this machine's)
     */
    public static MetricsServer start(InetSocketAddress at, HostModel model, FabricView fabric) throws IOException {
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(new HostMetrics(model, fabric));
        MetricsHandler scrape = new MetricsHandler(registry);
        HttpServer server = HttpServer.create(at, 16);
        MetricsServer[] self = new MetricsServer[1];
        // one scrape at a time: a scrape copies an immutable snapshot, so a queue of them costs little
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "metrics");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", exchange -> {
            try (exchange) {
                if (!PATH.equals(exchange.getRequestURI().getPath())) {
                    refuse(exchange, 404, "not found: this listener serves GET " + PATH + " only");
                } else if (!"GET".equals(exchange.getRequestMethod())) {
                    exchange.getResponseHeaders().set("Allow", "GET");
                    refuse(exchange, 405, exchange.getRequestMethod() + " is not allowed: " + PATH + " is read-only (GET)");
                } else {
                    self[0].lastScrape = self[0].clock.nanoTime();
                    scrape.handle(exchange);
                }
            }
        });
        self[0] = new MetricsServer(server, executor, model.clock());
        server.start();
        return self[0];
    }

    /**
     * {@link #start} at {@code at}, or, when that port is busy, at a free port of the same address,
     * after telling {@code note} so (the default address gives way, as the dashboard's port does).
     */
    public static MetricsServer startOrAnyPort(InetSocketAddress at, HostModel model, FabricView fabric,
            java.util.function.Consumer<String> note) throws IOException {
        try {
            return start(at, model, fabric);
        } catch (java.net.BindException busy) {
            note.accept("port " + at.getPort() + " is busy; the metrics listener takes a free port instead");
            return start(new InetSocketAddress(at.getAddress(), 0), model, fabric);
        }
    }

    private static void refuse(HttpExchange exchange, int status, String line) throws IOException {
        byte[] body = (line + "\n").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /**
     * Whether someone asked for {@code GET /metrics} within {@code nanos} of now: the host then holds
     * every board value for it ({@code Host.tick}), as it does for what an open dashboard page shows.
     */
    public boolean scrapedWithin(long nanos) {
        long last = lastScrape;
        return last != NEVER && clock.nanoTime() - last <= nanos;
    }

    /** The address bound (its port when 0 was asked). */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    /** {@code http://HOST:PORT/metrics}. */
    public String url() {
        InetSocketAddress a = address();
        String host = a.getAddress().getHostAddress();
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort() + PATH;
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
