package io.spectrum.host.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Debian's headless chromium driven over the Chrome DevTools Protocol with java.net.http.WebSocket.
 * Only Runtime.evaluate is used. Closing kills chromium (and its helper processes) and deletes its
 * profile directory.
 */
final class HeadlessChromium implements AutoCloseable {

    private final ObjectMapper mapper = new ObjectMapper();
    private final Path profile;
    private final Process process;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();

    HeadlessChromium(Path binary, String url) throws Exception {
        profile = Files.createTempDirectory("spectrum-chromium-");
        process = new ProcessBuilder(List.of(binary.toString(),
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + profile, "--remote-debugging-port=0", url))
                .redirectErrorStream(true)
                .redirectOutput(profile.resolve("chromium.log").toFile())
                .start();
        try {
            int port = devToolsPort(Duration.ofSeconds(60));
            HttpClient http = HttpClient.newHttpClient();
            String wsUrl = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (wsUrl == null && System.nanoTime() < deadline) {
                String list = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list")).build(),
                        HttpResponse.BodyHandlers.ofString()).body();
                for (JsonNode t : mapper.readTree(list)) {
                    if ("page".equals(t.path("type").asText())) {
                        wsUrl = t.path("webSocketDebuggerUrl").asText();
                    }
                }
                if (wsUrl == null) {
                    Thread.sleep(100);
                }
            }
            if (wsUrl == null) {
                throw new IllegalStateException("chromium opened no page target; log: " + log());
            }
            socket = http.newWebSocketBuilder().buildAsync(URI.create(wsUrl), new Listener()).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            close();
            throw e;
        }
    }

    /** The DevTools port chromium chose, from the first line of DevToolsActivePort. */
    private int devToolsPort(Duration timeout) throws Exception {
        Path file = profile.resolve("DevToolsActivePort");
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("chromium exited with " + process.exitValue() + "; log: " + log());
            }
            if (Files.exists(file)) {
                List<String> lines = Files.readAllLines(file);
                if (!lines.isEmpty() && !lines.get(0).isBlank()) {
                    return Integer.parseInt(lines.get(0).trim());
                }
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("chromium wrote no DevToolsActivePort within " + timeout + "; log: " + log());
    }

    String log() {
        try {
            return Files.readString(profile.resolve("chromium.log"));
        } catch (IOException e) {
            return "(no log)";
        }
    }

    /** Sends one DevTools command and returns its "result". */
    private JsonNode call(String method, ObjectNode params) throws Exception {
        int id = ids.incrementAndGet();
        ObjectNode msg = mapper.createObjectNode();
        msg.put("id", id);
        msg.put("method", method);
        msg.set("params", params);
        CompletableFuture<JsonNode> reply = new CompletableFuture<>();
        pending.put(id, reply);
        socket.sendText(mapper.writeValueAsString(msg), true).get(10, TimeUnit.SECONDS);
        JsonNode r = reply.get(30, TimeUnit.SECONDS);
        if (r.has("error")) {
            throw new IllegalStateException("CDP error: " + r.get("error"));
        }
        return r.path("result");
    }

    /** Saves what the page shows at {@code width} x {@code height} CSS pixels as a PNG. */
    void screenshot(Path png, int width, int height) throws Exception {
        ObjectNode metrics = mapper.createObjectNode();
        metrics.put("width", width);
        metrics.put("height", height);
        metrics.put("deviceScaleFactor", 1);
        metrics.put("mobile", false);
        call("Emulation.setDeviceMetricsOverride", metrics);
        ObjectNode shot = mapper.createObjectNode();
        shot.put("format", "png");
        JsonNode r = call("Page.captureScreenshot", shot);
        Files.createDirectories(png.toAbsolutePath().getParent());
        Files.write(png, java.util.Base64.getDecoder().decode(r.path("data").asText()));
    }

    /** Evaluates a JavaScript expression in the page and returns its value (returnByValue). */
    JsonNode eval(String expression) throws Exception {
        ObjectNode params = mapper.createObjectNode();
        params.put("expression", expression);
        params.put("returnByValue", true);
        params.put("awaitPromise", true);
        JsonNode result = call("Runtime.evaluate", params);
        if (result.has("exceptionDetails")) {
            throw new IllegalStateException("page threw: " + result.get("exceptionDetails"));
        }
        return result.path("result").path("value");
    }

    String evalString(String expression) throws Exception {
        JsonNode v = eval(expression);
        return v.isNull() || v.isMissingNode() ? null : v.asText();
    }

    private final class Listener implements WebSocket.Listener {
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                String text = partial.toString();
                partial.setLength(0);
                try {
                    JsonNode n = mapper.readTree(text);
                    if (n.has("id")) {
                        CompletableFuture<JsonNode> f = pending.remove(n.get("id").asInt());
                        if (f != null) {
                            f.complete(n);
                        }
                    }
                } catch (IOException e) {
                    // not ours to handle; events we do not use
                }
            }
            ws.request(1);
            return null;
        }
    }

    @Override
    public void close() {
        if (socket != null) {
            socket.abort();
        }
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> walk = Files.walk(profile)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a temp dir
        }
    }
}
