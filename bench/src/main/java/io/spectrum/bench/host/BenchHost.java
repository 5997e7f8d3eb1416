package io.spectrum.bench.host;

import io.spectrum.runtime.LinkSpec;
import io.spectrum.runtime.LinkSettings;
import io.spectrum.link.Link;
import io.spectrum.node.api.Node;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.time.SystemClock;
import java.io.IOException;
import java.io.InputStream;

/**
 * The Spectrum host under test of {@link HostVsMosquitto}, run as a JVM of its own (so its CPU is
 * read from {@code /proc/PID/stat} exactly as the broker's): one host node on one listener at
 * {@code 127.0.0.1:PORT} holding {@link #VERTEX}, a writable u32. The listener is UDP, or with
 * {@code tcp} libtracer's TCP transport (each frame behind a u32-LE length, as a Mosquitto client's
 * TCP connection is a stream). With {@code wide} the listener is served as the host serves its
 * client listeners: behind the host's {@code QueuedLink} ({@code HostService.queued}) and with the
 * host's UDP batch ({@code Host.CLIENT_LISTENER_BATCH}). Prints {@code READY} when it serves
 * and runs until its standard input closes (the benchmark holds the pipe, so the host dies with it).
 *
 * <p>Run: {@code java -cp bench/target/benchmarks.jar io.spectrum.bench.host.BenchHost PORT [narrow|wide] [udp|tcp]}
 *
 * <p>Benchmark settings, not defaults: the per-peer delivery rate limit is off (default 2,000/s per
 * peer would cap the run, which is its job on a real host), the share table and the UDP peer table
 * hold 1,024 peers, and a silent peer is neither probed nor dropped for an hour (the receivers only receive; a real
 * subscriber answers the link's liveness probes or re-verifies its slot, as {@code spectrum sub} does).
 */
public final class BenchHost {
    static final String VERTEX = "/bench/v";

    private BenchHost() {
    }

    static NodeConfig config() {
        return NodeConfig.builder().maxVertices(1024).maxSubscribers(4096).sharePeers(1024)
                .maxRemoteSubscriptions(256) // room for the runtime's caps probe of each new peer
                .peerDeliveriesPerSecond(0).build();
    }

    /**
     * Serves until standard input closes; arguments: the port, then {@code narrow} (default) or
     * {@code wide}, then {@code udp} (default) or {@code tcp}.
     */
    public static void main(String[] args) throws IOException {
        int port = Integer.parseInt(args[0]);
        HostCore core = HostCore.parse(args.length > 1 ? args[1] : "narrow");
        Node node = core.newNode(config());
        int rc = node.declare(NodePath.of(VERTEX), VertexSchema.value(4, false).writable().build());
        if (rc != 0) {
            throw new IllegalStateException("declare " + VERTEX + ": " + io.spectrum.wire.WireError.identity(rc));
        }
        String transport = args.length > 2 ? args[2] : "udp";
        Link link = LinkSpec.listen(1, transport + "://127.0.0.1:" + port,
                new LinkSettings().peers(1024).timeoutMillis(3_600_000L).pingMillis(3_600_000L)
                        .batch(io.spectrum.host.Host.CLIENT_LISTENER_BATCH), SystemClock.INSTANCE);
        // the WIDE core serves its listener as the host does: behind the host's QueuedLink (an I/O
        // thread of its own, a bounded queue per peer), which the host's fan-out pays for
        Link served = core == HostCore.WIDE ? io.spectrum.host.runtime.HostService.queued(link) : link;
        try (HostCore.Served s = core.serve("bench-host", node, served)) {
            System.out.println("READY " + core + " " + transport + " pid " + ProcessHandle.current().pid());
            System.out.flush();
            InputStream in = System.in;
            while (in.read() >= 0) {
                // the benchmark writes nothing; EOF means it is done
            }
        }
    }
}
