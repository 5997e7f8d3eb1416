package io.spectrum.host.metrics;

import io.spectrum.host.Host;
import io.spectrum.host.HostConfig;
import io.spectrum.host.runtime.HostRuntime;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A real host ({@link Host#start}, from a {@link HostConfig}) with its metrics listener on a loopback
 * port, mounting one emulated board over loopback UDP as {@code board1}: the demo's vertices
 * ({@code /temp} in °C, {@code /humidity} in %, {@code /counter}, {@code /led}).
 */
final class MetricsFixture implements AutoCloseable {
    final HostRuntime board;
    /** The wall clock when the fixture began, ms since the epoch. */
    final long startedMillis = System.currentTimeMillis();
    final Host host;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    MetricsFixture() throws Exception {
        UdpLink boardLink = UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0),
                new UdpLinkConfig().peerTimeoutMillis(600).pingIntervalMillis(200), SystemClock.INSTANCE);
        board = new HostRuntime("board", new NarrowNode(NodeConfig.defaults()));
        io.spectrum.node.ServingNode n = board.node();
        assertEquals(WireError.OK, n.declare(NodePath.of("/temp"),
                VertexSchema.value(2, true).unit("Cel").scale(0.01).readOnly().build()));
        assertEquals(WireError.OK, n.declare(NodePath.of("/humidity"),
                VertexSchema.value(2, false).unit("%").scale(0.1).range(0, 1000).readOnly().build()));
        assertEquals(WireError.OK, n.declare(NodePath.of("/counter"), VertexSchema.value(4, false).readOnly().build()));
        assertEquals(WireError.OK, n.declare(NodePath.of("/led"),
                VertexSchema.value(1, false).range(0, 1).writable().build()));
        board.attach(boardLink);
        board.start();
        board.write("/temp", value(2328, 2));
        board.write("/humidity", value(483, 2));
        board.write("/counter", value(7, 4));
        board.write("/led", value(0, 1));
        HostConfig config = HostConfig.builder().name("host")
                .mount(HostConfig.Mount.udp("board1", "127.0.0.1:" + boardLink.localAddress().getPort(), java.util.List.of()))
                .dashboard(HostConfig.NO_DASHBOARD).metrics("127.0.0.1:0").pingMillis(200).timeoutMillis(600).build();
        StringWriter out = new StringWriter();
        host = Host.start(config, new PrintWriter(out), new PrintWriter(new StringWriter()), false);
    }

    /** The listener's base address, {@code http://127.0.0.1:PORT}. */
    String base() {
        return "http://127.0.0.1:" + host.metrics().address().getPort();
    }

    HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(base() + path)).timeout(Duration.ofSeconds(10));
        r.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            r.header("Content-Type", "application/json");
        }
        return http.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    String scrape() throws Exception {
        HttpResponse<String> r = send("GET", "/metrics", null);
        assertEquals(200, r.statusCode(), r.body());
        return r.body();
    }

    /**
     * Scrapes and ticks the host (as {@code spectrum host} does each second: once scraped, it holds every
     * board value) until {@code line} is exposed; bounded.
     */
    String awaitLine(String line) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            host.tick();
            last = scrape();
            if (last.lines().anyMatch(line::equals)) {
                return last;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("never exposed: " + line + "\n--- last scrape:\n" + last);
    }

    static byte[] value(long v, int width) {
        byte[] b = new byte[16];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.value(v, width);
        return Arrays.copyOf(b, w.length());
    }

    @Override
    public void close() {
        host.close();
        board.close();
    }
}
