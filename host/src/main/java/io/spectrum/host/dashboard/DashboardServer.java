package io.spectrum.host.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.spectrum.host.view.BridgeView;
import io.spectrum.host.view.FabricView;
import io.spectrum.host.view.HostModel;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.spectrum.host.history.HistoryBucket;
import io.spectrum.host.history.HistoryJson;
import io.spectrum.host.history.HistoryReader;
import io.spectrum.host.history.HistoryRow;
import io.spectrum.host.history.HistoryStore;
import io.spectrum.host.history.HistoryTime;
import io.spectrum.host.view.VertexHistory;
import io.spectrum.host.view.WriteOutcome;
import io.spectrum.wire.WireError;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The web dashboard: one static page, a JSON API and a Server-Sent-Events stream of snapshots.
 *
 * <pre>
 * GET  /                              the page (resources under /dashboard/)
 * GET  /api/snapshot                  the current {@link io.spectrum.host.view.HostSnapshot} as JSON, with the
 *                                     {@link FabricView}'s MQTT bridge counters and remote hosts ({@link SnapshotJson})
 * GET  /api/events                    text/event-stream; one "snapshot" event per change (coalesced)
 * GET  /api/history?window=S[&every=D]  the host's last S seconds of every numeric vertex (at most 900 from
 *                                     memory; with a history store, up to its retention, from the store,
 *                                     downsampled to one point per D, or per S/600 beyond 15 min),
 *                                     {"series": {path: [[ts ms, value, seq], ...]}} (a downsampled point:
 *                                     [ts ms, mean, n, min, max, last])
 * GET  /api/history?path=P[&path=Q]&since=T[&until=T][&every=D]   with a history store: the stored rows of
 *                                     the paths (globs too) as value lines ({@link HistoryJson}), or their
 *                                     buckets with every; {"rows": [...], "truncated": bool}
 * POST /api/subscribers/{suspend|resume|clear}   body {"path": "...", "slot": N}
 * POST /api/view                      body {"view": "id", "paths": ["...", ...]}: what this page shows now;
 *                                     the host subscribes to the union of what open pages show
 *                                     ({@link HostModel#show}); a page that stops saying it (closed,
 *                                     gone) for {@link #VIEW_TTL_MS} is forgotten
 * POST /api/write                     body {"path": "...", "value": "1"}: parsed by the declaration, written
 *                                     on the board for a path under a mount; refusals are one line in "message"
 * </pre>
 *
 * <p>Locking: the model's change listener only bumps a counter under {@link #signal}; each event
 * stream waits on that monitor, releases it, then takes a snapshot and writes. No thread holds a
 * lock while it writes to a socket. A {@link FabricView}'s remote hosts signal the same way; its
 * bridge counters are read once a second ({@link #FABRIC_POLL_MS}) and a change is pushed. POSTs
 * need {@code Content-Type: application/json}, which a cross-site form cannot send without a CORS
 * preflight we never grant.
 */
public final class DashboardServer implements AutoCloseable {
    /** Simultaneous event streams; more get 503 so a reload storm cannot take every thread. */
    public static final int MAX_STREAMS = 32;
    private static final long HEARTBEAT_MS = 15_000;
    private static final int MAX_BODY = 4096;
    /** A page repeats what it shows every 10 s; one silent for this long is gone. */
    public static final long VIEW_TTL_MS = 30_000;
    private static final int MAX_VIEWS = MAX_STREAMS;
    private static final int MAX_VIEW_PATHS = 4096;
    private static final int MAX_VIEW_BODY = 512 * 1024;
    /** How often the bridge's counters are read for a change to push. */
    public static final long FABRIC_POLL_MS = 1_000;

    private final HostModel model;
    /** Waits the least time between two events on one stream. */
    private final org.agrona.concurrent.IdleStrategy pause;
    private final FabricView fabric;
    private final HostModel.Registration fabricRegistration;
    private BridgeView lastBridge; // the sweeper thread's only
    private final ObjectMapper mapper = new ObjectMapper();
    private final HttpServer server;
    private final ExecutorService executor;
    private final HostModel.Registration registration;
    private final Object signal = new Object();
    private final AtomicInteger streams = new AtomicInteger();
    private final long minPushIntervalMs;
    private long changes; // guarded by signal
    /** Open views (page id -> when it last said what it shows, ms); guarded by itself. */
    private final java.util.Map<String, Long> views = new java.util.HashMap<>();
    private final java.util.concurrent.ScheduledExecutorService sweeper;
    private volatile boolean closed;

    /** Now by the host's clock, in Unix milliseconds. */
    private long nowMillis() {
        return model.clock().epochNanos() / 1_000_000L;
    }

    /**
     * Binds the dashboard (port 0 = any free port) and starts serving.
     *
     * @param minPushIntervalMs the least time between two events on one stream (coalescing)
     */
    public DashboardServer(HostModel model, InetSocketAddress bind, long minPushIntervalMs) throws IOException {
        this(model, FabricView.NONE, bind, minPushIntervalMs);
    }

    /**
     * Binds the dashboard (port 0 = any free port) and starts serving {@code model} and what
     * {@code fabric} shows beyond it (an MQTT bridge's counters, other hosts from the broker).
     *
     * @param minPushIntervalMs the least time between two events on one stream (coalescing)
     */
    public DashboardServer(HostModel model, FabricView fabric, InetSocketAddress bind, long minPushIntervalMs)
            throws IOException {
        this.model = model;
        this.pause = new org.agrona.concurrent.SleepingMillisIdleStrategy(Math.max(1, minPushIntervalMs));
        this.fabric = fabric;
        this.minPushIntervalMs = minPushIntervalMs;
        AtomicInteger n = new AtomicInteger();
        this.executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "dashboard-http-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.server = HttpServer.create(bind, 64);
        server.setExecutor(executor);
        server.createContext("/", this::handleStatic);
        server.createContext("/api/snapshot", this::handleSnapshot);
        server.createContext("/api/events", this::handleEvents);
        server.createContext("/api/subscribers/", this::handleAction);
        server.createContext("/api/history", this::handleHistory);
        server.createContext("/api/write", this::handleWrite);
        server.createContext("/api/view", this::handleView);
        this.registration = model.onChange(this::changed);
        this.fabricRegistration = fabric.onChange(this::changed);
        this.sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "dashboard-views");
            t.setDaemon(true);
            return t;
        });
        sweeper.scheduleWithFixedDelay(this::forgetSilentViews, 5, 5, java.util.concurrent.TimeUnit.SECONDS);
        sweeper.scheduleWithFixedDelay(this::pollBridge, FABRIC_POLL_MS, FABRIC_POLL_MS,
                java.util.concurrent.TimeUnit.MILLISECONDS);
        server.start();
    }

    /** The page's address, e.g. {@code http://127.0.0.1:8080/}. */
    public String url() {
        InetSocketAddress a = server.getAddress();
        String host = a.getAddress().isAnyLocalAddress() ? "127.0.0.1" : a.getAddress().getHostAddress();
        if (host.contains(":")) {
            host = "[" + host + "]";
        }
        return "http://" + host + ":" + a.getPort() + "/";
    }

    /** The port the dashboard listens on (the one the OS picked when asked for 0). */
    public int port() {
        return server.getAddress().getPort();
    }

    /** Open event streams right now. */
    public int openStreams() {
        return streams.get();
    }

    private void changed() {
        synchronized (signal) {
            changes++;
            signal.notifyAll();
        }
    }

    /** A change in the bridge's counters (connected, queued, dropped...) is pushed like any other. */
    private void pollBridge() {
        try {
            BridgeView now = fabric.bridge();
            if (!java.util.Objects.equals(now, lastBridge)) {
                lastBridge = now;
                changed();
            }
        } catch (RuntimeException e) {
            // the bridge is stopping; the next poll reads it again
        }
    }

    private void handleStatic(HttpExchange ex) throws IOException {
        try (ex) {
            if (!"GET".equals(ex.getRequestMethod()) && !"HEAD".equals(ex.getRequestMethod())) {
                sendError(ex, 405, "method_not_allowed", "use GET");
                return;
            }
            String path = ex.getRequestURI().getPath();
            if (path.equals("/")) {
                path = "/index.html";
            }
            String type = contentType(path);
            if (type == null || path.contains("..") || path.indexOf('/', 1) >= 0) {
                sendError(ex, 404, "not_found", "no such page: " + path);
                return;
            }
            byte[] body;
            try (InputStream in = DashboardServer.class.getResourceAsStream("/dashboard" + path)) {
                if (in == null) {
                    sendError(ex, 404, "not_found", "no such page: " + path);
                    return;
                }
                body = in.readAllBytes();
            }
            ex.getResponseHeaders().set("Content-Type", type);
            ex.getResponseHeaders().set("Cache-Control", "no-cache");
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
        }
    }

    private static String contentType(String path) {
        if (path.endsWith(".html")) {
            return "text/html; charset=utf-8";
        }
        if (path.endsWith(".js")) {
            return "text/javascript; charset=utf-8";
        }
        if (path.endsWith(".css")) {
            return "text/css; charset=utf-8";
        }
        return null;
    }

    private void handleSnapshot(HttpExchange ex) throws IOException {
        try (ex) {
            if (!"GET".equals(ex.getRequestMethod())) {
                sendError(ex, 405, "method_not_allowed", "use GET");
                return;
            }
            sendJson(ex, 200, snapshotJson());
        }
    }

    /** The snapshot as the page gets it, with {@code historyStore}: whether {@code /api/history?path=…} answers (the page's long ranges). */
    private ObjectNode snapshotJson() {
        ObjectNode o = SnapshotJson.toJson(mapper, model.snapshot(), fabric, nowMillis());
        o.put("historyStore", model.historyStore() != null);
        return o;
    }

    private void handleHistory(HttpExchange ex) throws IOException {
        try (ex) {
            if (!"GET".equals(ex.getRequestMethod())) {
                sendError(ex, 405, "method_not_allowed", "use GET");
                return;
            }
            Map<String, List<String>> q = query(ex.getRequestURI().getRawQuery());
            HistoryStore store = model.historyStore();
            long now = nowMillis();
            long maxWindowMs = store == null ? VertexHistory.WINDOW_MS : store.settings().rollupRetentionMs();
            long windowMs = Math.min(VertexHistory.WINDOW_MS, maxWindowMs);
            long everyMs = 0;
            try {
                if (q.containsKey("window")) {
                    long seconds = Long.parseLong(q.get("window").get(0));
                    if (seconds <= 0) {
                        throw new NumberFormatException();
                    }
                    windowMs = Math.min(maxWindowMs, seconds * 1000);
                }
                if (q.containsKey("every")) {
                    everyMs = HistoryTime.durationMs(q.get("every").get(0));
                }
            } catch (IllegalArgumentException e) { // NumberFormatException too
                sendError(ex, 400, "bad_request", "window is a number of seconds, 1 to " + maxWindowMs / 1000
                        + "; every a duration (1m)");
                return;
            }
            if (store == null) {
                if (q.containsKey("path")) {
                    sendError(ex, 404, "no_history", "this host keeps no history (start it with --state-dir DIR or --history FILE)");
                    return;
                }
                sendJson(ex, 200, SnapshotJson.history(mapper, model.history(), now, windowMs));
                return;
            }
            try (HistoryReader reader = store.reader()) {
                if (!q.containsKey("path")) {
                    long every = everyMs > 0 ? everyMs : windowMs > VertexHistory.WINDOW_MS ? chartStep(windowMs) : 0;
                    sendJson(ex, 200, SnapshotJson.history(mapper, reader, now, windowMs, every, HISTORY_POINTS));
                    return;
                }
                long since;
                long until;
                try {
                    since = q.containsKey("since") ? HistoryTime.momentMs(q.get("since").get(0), now) : now - VertexHistory.WINDOW_MS;
                    until = q.containsKey("until") ? HistoryTime.momentMs(q.get("until").get(0), now) : now + 1;
                } catch (IllegalArgumentException e) {
                    sendError(ex, 400, "bad_request", "since/until: " + e.getMessage());
                    return;
                }
                List<String> paths;
                try {
                    paths = reader.paths(q.get("path"));
                } catch (IllegalArgumentException e) {
                    sendError(ex, 400, "bad_request", "path: " + e.getMessage());
                    return;
                }
                ObjectNode root = mapper.createObjectNode();
                root.put("since", since);
                root.put("until", until);
                if (everyMs > 0) {
                    root.put("every", everyMs);
                }
                ArrayNode rows = root.putArray("rows");
                boolean truncated = false;
                for (String p : paths) {
                    if (everyMs > 0) {
                        List<HistoryBucket> bs = reader.buckets(p, since, until, everyMs);
                        truncated |= bs.size() > HISTORY_POINTS;
                        bs.stream().limit(HISTORY_POINTS).forEach(b -> rows.add(HistoryJson.bucket(b)));
                    } else {
                        List<HistoryRow> rs = reader.rows(p, since, until, HISTORY_POINTS + 1);
                        truncated |= rs.size() > HISTORY_POINTS;
                        rs.stream().limit(HISTORY_POINTS).forEach(r -> rows.add(HistoryJson.row(r)));
                    }
                }
                root.put("truncated", truncated);
                sendJson(ex, 200, root);
            } catch (java.sql.SQLException e) {
                sendError(ex, 503, "history_unavailable", "cannot read the history: " + e.getMessage());
            }
        }
    }

    /**
     * A long chart window's step: about 600 points, at least 1 s; beyond a minute whole minutes, so the
     * store answers from its one-minute summaries.
     */
    static long chartStep(long windowMs) {
        long step = Math.max(1000, windowMs / 600);
        return step <= 60_000 ? step : (step + 59_999) / 60_000 * 60_000;
    }

    /** Rows or points per path in one history answer at most (bounded; a longer range takes {@code every}). */
    static final int HISTORY_POINTS = 10_000;

    /** A query string's parameters, decoded, each name with its values in order. */
    private static Map<String, List<String>> query(String raw) {
        Map<String, List<String>> m = new java.util.LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return m;
        }
        for (String kv : raw.split("&")) {
            int eq = kv.indexOf('=');
            String k = java.net.URLDecoder.decode(eq < 0 ? kv : kv.substring(0, eq), java.nio.charset.StandardCharsets.UTF_8);
            String v = eq < 0 ? "" : java.net.URLDecoder.decode(kv.substring(eq + 1), java.nio.charset.StandardCharsets.UTF_8);
            m.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
        }
        return m;
    }

    private void handleWrite(HttpExchange ex) throws IOException {
        try (ex) {
            JsonNode body = jsonBody(ex, "{\"path\": ..., \"value\": ...}");
            if (body == null) {
                return;
            }
            JsonNode value = body.path("value");
            if (!body.path("path").isTextual() || !(value.isTextual() || value.isNumber() || value.isBoolean())) {
                sendError(ex, 400, "bad_request", "the body must be {\"path\": \"/board1/led\", \"value\": \"1\"}");
                return;
            }
            String path = body.get("path").asText();
            String text = value.isBoolean() ? (value.asBoolean() ? "1" : "0") : value.asText();
            WriteOutcome w = model.write(path, text);
            ObjectNode reply = mapper.createObjectNode();
            reply.put("ok", w.ok());
            reply.put("code", w.code());
            reply.put("error", w.ok() ? null : WireError.identity(w.code()));
            if (!w.ok()) {
                reply.put("message", w.message());
            }
            sendJson(ex, w.ok() ? 200 : statusFor(w.code()), reply);
        }
    }

    private void handleView(HttpExchange ex) throws IOException {
        try (ex) {
            JsonNode body = jsonBody(ex, "{\"view\": \"id\", \"paths\": [...]}", MAX_VIEW_BODY);
            if (body == null) {
                return;
            }
            JsonNode paths = body.path("paths");
            String view = body.path("view").asText("");
            if (!body.path("view").isTextual() || view.isEmpty() || view.length() > 64 || !paths.isArray()
                    || paths.size() > MAX_VIEW_PATHS) {
                sendError(ex, 400, "bad_request", "the body must be {\"view\": \"an id of up to 64 characters\", "
                        + "\"paths\": [up to " + MAX_VIEW_PATHS + " paths]}");
                return;
            }
            java.util.List<String> shown = new java.util.ArrayList<>();
            paths.forEach(p -> {
                if (p.isTextual()) {
                    shown.add(p.asText());
                }
            });
            synchronized (views) {
                if (!views.containsKey(view) && views.size() >= MAX_VIEWS && !shown.isEmpty()) {
                    sendError(ex, 503, "too_many_views", "at most " + MAX_VIEWS + " pages at once; close one");
                    return;
                }
                if (shown.isEmpty()) {
                    views.remove(view);
                } else {
                    views.put(view, nowMillis());
                }
            }
            model.show(view, shown);
            ObjectNode reply = mapper.createObjectNode();
            reply.put("ok", true);
            reply.put("shown", shown.size());
            sendJson(ex, 200, reply);
        }
    }

    /** Views that did not repeat what they show within {@link #VIEW_TTL_MS} are ended. */
    private void forgetSilentViews() {
        java.util.List<String> gone = new java.util.ArrayList<>();
        long now = nowMillis();
        synchronized (views) {
            for (var it = views.entrySet().iterator(); it.hasNext(); ) {
                var e = it.next();
                if (now - e.getValue() > VIEW_TTL_MS) {
                    gone.add(e.getKey());
                    it.remove();
                }
            }
        }
        for (String v : gone) {
            try {
                model.show(v, java.util.List.of());
            } catch (RuntimeException e) {
                // the host is stopping
            }
        }
    }

    private JsonNode jsonBody(HttpExchange ex, String shape) throws IOException {
        return jsonBody(ex, shape, MAX_BODY);
    }

    /**
     * The JSON body of a POST, or null after answering the refusal (wrong method or type, too
     * large, not JSON).
     */
    private JsonNode jsonBody(HttpExchange ex, String shape, int maxBody) throws IOException {
        if (!"POST".equals(ex.getRequestMethod())) {
            sendError(ex, 405, "method_not_allowed", "use POST with a JSON body " + shape);
            return null;
        }
        String ct = ex.getRequestHeaders().getFirst("Content-Type");
        if (ct == null || !ct.toLowerCase().startsWith("application/json")) {
            sendError(ex, 415, "unsupported_media_type", "send Content-Type: application/json");
            return null;
        }
        byte[] raw = ex.getRequestBody().readNBytes(maxBody + 1);
        if (raw.length > maxBody) {
            sendError(ex, 413, "too_large", "the body is limited to " + maxBody + " bytes");
            return null;
        }
        try {
            JsonNode body = mapper.readTree(raw);
            if (body == null || !body.isObject()) {
                sendError(ex, 400, "bad_request", "the body must be a JSON object " + shape);
                return null;
            }
            return body;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            sendError(ex, 400, "bad_json", "the body is not JSON: " + e.getOriginalMessage());
            return null;
        }
    }

    private void handleEvents(HttpExchange ex) throws IOException {
        try (ex) {
            if (streams.incrementAndGet() > MAX_STREAMS) {
                sendError(ex, 503, "too_many_streams", "at most " + MAX_STREAMS + " dashboards at once; close one");
                return;
            }
            ex.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
            ex.getResponseHeaders().set("Cache-Control", "no-cache");
            ex.sendResponseHeaders(200, 0); // chunked: the stream stays open
            OutputStream out = ex.getResponseBody();
            long seen = -1;
            while (!closed) {
                boolean heartbeat = false;
                synchronized (signal) {
                    if (seen == changes) {
                        signal.wait(HEARTBEAT_MS);
                        heartbeat = seen == changes;
                    }
                    seen = changes;
                }
                // lock released: snapshot, serialise and write without holding anything
                if (closed) {
                    break;
                }
                if (heartbeat) {
                    out.write(": ping\n\n".getBytes(StandardCharsets.UTF_8));
                } else {
                    String json = mapper.writeValueAsString(snapshotJson());
                    out.write(("event: snapshot\ndata: " + json + "\n\n").getBytes(StandardCharsets.UTF_8));
                }
                out.flush();
                if (minPushIntervalMs > 0) {
                    pause.idle(); // coalescing: the least time between two events on this stream
                    if (Thread.currentThread().isInterrupted()) {
                        break;
                    }
                }
            }
        } catch (IOException e) {
            // the browser went away; nothing to clean up beyond the counter
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            streams.decrementAndGet();
        }
    }

    private void handleAction(HttpExchange ex) throws IOException {
        try (ex) {
            JsonNode body = jsonBody(ex, "{\"path\":..., \"slot\":...}");
            if (body == null) {
                return;
            }
            String action = ex.getRequestURI().getPath().substring("/api/subscribers/".length());
            if (!body.path("path").isTextual() || !body.path("slot").canConvertToInt()
                    || !body.path("slot").isIntegralNumber()) {
                sendError(ex, 400, "bad_request", "the body must be {\"path\": \"/a/b\", \"slot\": 0}");
                return;
            }
            String path = body.get("path").asText();
            int slot = body.get("slot").asInt();
            int code;
            switch (action) {
                case "suspend" -> code = model.suspend(path, slot);
                case "resume" -> code = model.resume(path, slot);
                case "clear" -> code = model.clear(path, slot);
                default -> {
                    sendError(ex, 404, "not_found", "unknown action '" + action + "'; use suspend, resume or clear");
                    return;
                }
            }
            ObjectNode reply = mapper.createObjectNode();
            reply.put("code", code);
            reply.put("error", code == WireError.OK ? null : WireError.identity(code));
            reply.put("ok", code == WireError.OK);
            if (code != WireError.OK) {
                reply.put("message", action + " " + path + "[" + slot + "] refused: " + WireError.identity(code));
            }
            sendJson(ex, code == WireError.OK ? 200 : statusFor(code), reply);
        }
    }

    private static int statusFor(int code) {
        return switch (code) {
            case WireError.PATH_NOT_FOUND -> 404;
            case WireError.ACCESS_DENIED -> 403;
            case WireError.PATH_INVALID, WireError.SCHEMA_TYPE_MISMATCH -> 400;
            case WireError.FLOW_TIMEOUT, WireError.TRANSPORT_DOWN -> 504;
            default -> 409;
        };
    }

    private void sendJson(HttpExchange ex, int status, JsonNode json) throws IOException {
        byte[] body = mapper.writeValueAsBytes(json);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.getResponseHeaders().set("Cache-Control", "no-cache");
        ex.sendResponseHeaders(status, body.length);
        ex.getResponseBody().write(body);
    }

    private void sendError(HttpExchange ex, int status, String error, String message) throws IOException {
        ObjectNode o = mapper.createObjectNode();
        o.put("ok", false);
        o.put("error", error);
        o.put("message", message);
        sendJson(ex, status, o);
    }

    @Override
    public void close() {
        closed = true;
        registration.close();
        fabricRegistration.close();
        synchronized (signal) {
            signal.notifyAll();
        }
        server.stop(0);
        executor.shutdownNow();
        sweeper.shutdownNow();
    }
}
