package io.spectrum.bench.node;

import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodePath;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * One FWD forward hop through a routing NarrowNode (decode, mount match, rewrite into the router's
 * buffer, send): a client's READ under a mount out to the board link, the board's REPLY back to the
 * client's listener route, and a delivery (WRITE, empty src) back. The links only count. JMH, or
 * thread CPU time per hop with {@link #main}:
 * {@code java -cp bench/target/benchmarks.jar io.spectrum.bench.node.ForwardHopBench}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ForwardHopBench {
    private NarrowNode node;
    private final WireBench.CountingLink clients = new WireBench.CountingLink();
    private final WireBench.CountingLink board = new WireBench.CountingLink();
    private byte[] request;
    private byte[] reply;
    private byte[] delivery;

    /**
     * A routing node with a client listener and a board mounted as {@code /board1}, and the three frames to forward.
     */
    @Setup
    public void setup() {
        node = NodeBenchSupport.node(4);
        node.attach(clients);
        node.attach(board);
        node.mountListener("clients", clients);
        node.mount("board1", board, 0);
        request = frame(FwdView.OP_READ, NodePath.of("/board1/sensor/temp"), NodePath.of("/reply-ep"), null, null);
        node.onFrame(clients, 4, request, 0, request.length); // peer 4's route: /clients/4-1
        byte[] value = {1, 0, 4, 0, (byte) 0xD2, 4, 0, 0};
        reply = frame(FwdView.OP_REPLY, NodePath.of("/clients/4-1/reply-ep"), NodePath.of("/sensor/temp"),
                new byte[] {1, 0, 1, 0, 0}, value);
        delivery = frame(FwdView.OP_WRITE, NodePath.of("/clients/4-1/reply-ep"), null, null, value);
    }

    static byte[] frame(int op, NodePath dst, NodePath src, byte[] kind, byte[] payload) {
        byte[] b = new byte[512];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FWD).value(op, 1).raw(dst.tlv());
        if (src == null) {
            w.raw(new byte[] {6, 0, 0, 0});
        } else {
            w.raw(src.tlv());
        }
        if (kind != null) {
            w.raw(kind);
        }
        if (payload != null) {
            w.raw(payload);
        }
        w.end();
        return java.util.Arrays.copyOf(b, w.length());
    }

    /** A client's READ forwarded to the board link; returns the frames the board link has sent. */
    @Benchmark
    public long forwardRequest() {
        node.onFrame(clients, 4, request, 0, request.length);
        return board.frames;
    }

    /** The board's REPLY forwarded back to the client's route; returns the frames the client link has sent. */
    @Benchmark
    public long forwardReply() {
        node.onFrame(board, 0, reply, 0, reply.length);
        return clients.frames;
    }

    /** A delivery (WRITE) forwarded back to the client's route; returns the frames the client link has sent. */
    @Benchmark
    public long forwardDelivery() {
        node.onFrame(board, 0, delivery, 0, delivery.length);
        return clients.frames;
    }

    /**
     * Prints the thread CPU time per hop of each kind; the optional argument is the hops per round (default
     * 1,000,000).
     */
    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        ForwardHopBench b = new ForwardHopBench();
        b.setup();
        WireBench wb = new WireBench();
        wb.setup();
        System.out.printf(Locale.ROOT, "forward hop: request %6.1f ns   reply %6.1f ns   delivery %6.1f ns   (terminus remote read %6.1f ns)%n",
                NodeCpuTime.best(b::forwardRequest, n), NodeCpuTime.best(b::forwardReply, n),
                NodeCpuTime.best(b::forwardDelivery, n), NodeCpuTime.best(wb::remoteRead, n));
        if (b.board.frames < n || b.clients.frames < 2L * n) {
            throw new IllegalStateException("frames were not forwarded: " + b.board.frames + " / " + b.clients.frames);
        }
        System.out.println("(thread CPU time, best of 8 rounds)");
    }
}
