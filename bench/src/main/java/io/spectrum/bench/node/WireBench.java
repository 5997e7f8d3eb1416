package io.spectrum.bench.node;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.LinkCounters;
import io.spectrum.link.LinkStats;
import io.spectrum.link.PeerListener;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodePath;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The FWD terminus through a link: a wire toggle (suspend + resume of a routed edge, two requests,
 * two replies), a remote write delivered to one remote edge (request in, delivery and reply out)
 * and a remote read. The link only counts what it is given.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class WireBench {
    /** Counts frames; sends copy nothing. */
    static final class CountingLink implements Link {
        final LinkCounters stats = new LinkCounters();
        long frames;
        long bytes;

        @Override
        public int id() {
            return 1;
        }

        @Override
        public String name() {
            return "bench";
        }

        @Override
        public int send(int peer, byte[] buf, int off, int len) {
            frames++;
            bytes += len;
            return WireError.OK;
        }

        @Override
        public int poll(FrameHandler handler, int maxFrames) {
            return 0;
        }

        @Override
        public int maxFrame() {
            return 4096;
        }

        @Override
        public void setPeerListener(PeerListener listener) {
        }

        @Override
        public LinkStats stats() {
            return stats;
        }

        @Override
        public void close() {
        }
    }

    private NarrowNode node;
    private final CountingLink link = new CountingLink();
    private final NodePath temp = NodePath.of("/sensor/temp");
    private final NodePath ep = NodePath.of("/client/ep");
    private byte[] suspend;
    private byte[] resume;
    private byte[] remoteWrite;
    private byte[] remoteRead;

    static byte[] frame(int op, NodePath dst, int slot, NodePath src, byte[] payload) {
        byte[] b = new byte[512];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FWD).value(op, 1).raw(dst.tlv());
        if (slot != -2) {
            w.begin(TlvType.FIELD).leaf(TlvType.NAME, "subscribers".getBytes());
            if (slot >= 0) {
                w.value(slot, 4);
            }
            w.value(1, 1).end();
        }
        w.raw(src.tlv());
        if (payload != null) {
            w.raw(payload);
        }
        w.end();
        return java.util.Arrays.copyOf(b, w.length());
    }

    static byte[] record(NodePath target, int policy) {
        byte[] b = new byte[256];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.SUBSCRIBER).raw(target.tlv()).begin(TlvType.SETTINGS)
                .leaf(TlvType.NAME, "delivery_policy".getBytes()).value(policy, 2).end().end();
        return java.util.Arrays.copyOf(b, w.length());
    }

    /**
     * A node with one remote SUBSCRIBER edge on the vertex, appended over the counting link, and the frames to
     * replay.
     */
    @Setup
    public void setup() {
        node = NodeBenchSupport.node(4);
        node.attach(link);
        byte[] value = {1, 0, 4, 0, (byte) 0xD2, 4, 0, 0};
        node.write(temp, value, 0, value.length);
        byte[] append = frame(1, temp, -1, ep, record(ep, 0x0001));
        node.onFrame(link, 0, append, 0, append.length);
        suspend = frame(1, temp, 0, ep, record(ep, 0x0201));
        resume = frame(1, temp, 0, ep, record(ep, 0x0001));
        remoteWrite = frame(1, temp, -2, ep, value);
        remoteRead = frame(0, temp, -2, ep, null);
    }

    /** A suspend and a resume of the remote edge by wire; returns the frames the link sent. */
    @Benchmark
    public long wireToggle() {
        node.onFrame(link, 0, suspend, 0, suspend.length);
        node.onFrame(link, 0, resume, 0, resume.length);
        return link.frames;
    }

    /** A remote write to the vertex, delivered to its one remote edge; returns the frames the link sent. */
    @Benchmark
    public long remoteWriteToOneRemoteEdge() {
        node.onFrame(link, 0, remoteWrite, 0, remoteWrite.length);
        return link.frames;
    }

    /** A remote READ of the vertex and its reply; returns the frames the link sent. */
    @Benchmark
    public long remoteRead() {
        node.onFrame(link, 0, remoteRead, 0, remoteRead.length);
        return link.frames;
    }
}
