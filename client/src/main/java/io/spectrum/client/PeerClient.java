package io.spectrum.client;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.node.api.NodePath;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Names;
import io.spectrum.wire.StatusView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * A command-line client of a running node over one link: READ / WRITE / subscribe as FWD requests,
 * each with its own reply endpoint ({@code /cli/r/N}, digest §5.2), and a stream of deliveries for
 * subscriptions. Single-threaded: the caller's thread polls the link while it waits. Nothing is
 * recorded beyond the request in flight, so a long {@code sub} does not grow.
 */
public final class PeerClient implements AutoCloseable {

    /** A REPLY: OK with the payload TLV (null for a bare ack), or the error code. */
    public record Reply(int code, byte[] payload) {
        public boolean ok() {
            return code == WireError.OK;
        }
    }

    /** A delivery to one of our routes; seq/stale are the producer's stamp when {@code stamped}. */
    public record Delivery(String route, byte[] value, boolean stamped, long seq, boolean stale, boolean deleted) { }

    /** Sees every frame crossing the link, both ways (for {@code tap}). */
    public interface FrameTap {
        void frame(boolean outbound, byte[] buf, int off, int len);
    }


    private final Link link;
    private final int peer;
    private final Duration timeout;
    private final FrameDecoder decoder = new FrameDecoder();
    private final TlvIndex idx = new TlvIndex(4096, 32);
    private final FwdView fwd = new FwdView();
    private final TlvWriter writer = new TlvWriter(16);
    private final byte[] out = new byte[64 * 1024];
    private final List<Delivery> pending = new ArrayList<>();
    private FrameTap tap;
    private long nextRequest = 1;
    private byte[] awaitedRoute;
    private Reply awaited;
    private final FrameHandler handler = this::onFrame;

    public PeerClient(Link link, int peer, Duration timeout) {
        this.link = link;
        this.peer = peer;
        this.timeout = timeout;
    }

    public void setTap(FrameTap tap) {
        this.tap = tap;
    }

    public Reply read(String path) {
        return call(FwdView.OP_READ, path, null, (byte[]) null);
    }

    public Reply write(String path, byte[] valueTlv) {
        return call(FwdView.OP_WRITE, path, null, valueTlv);
    }

    /** READ {@code path:subscribers[]}: a POINT of renderings, holes as empty STATUS. */
    public Reply subscribers(String path) {
        return call(FwdView.OP_READ, path, subscribersField(), (byte[]) null);
    }

    /**
     * Appends SUBSCRIBER{route [, SETTINGS{delivery_policy, spectrum.topic 1}]} to
     * {@code path:subscribers[]} with {@code route} as the request's src, so the node delivers
     * FWD{WRITE, dst = route} to us and answers the append on the same route.
     */
    public Reply subscribe(String path, String route, int policy, boolean stamped) {
        byte[] rec = new byte[1024];
        TlvWriter w = writer.wrap(rec, 0, rec.length);
        w.begin(TlvType.SUBSCRIBER).raw(NodePath.of(route).tlv());
        if (policy != 0 || stamped) {
            w.begin(TlvType.SETTINGS);
            if (policy != 0) {
                w.leaf(TlvType.NAME, Names.DELIVERY_POLICY).value(policy, 2);
            }
            if (stamped) {
                w.leaf(TlvType.NAME, Names.TOPIC).value(1, 1);
            }
            w.end();
        }
        w.end();
        return callVia(route, FwdView.OP_WRITE, path, subscribersField(), Arrays.copyOf(rec, w.length()));
    }

    private static byte[] subscribersField() {
        byte[] b = new byte[64];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FIELD).leaf(TlvType.NAME, Names.SUBSCRIBERS).value(1, 1).end();
        return Arrays.copyOf(b, w.length());
    }

    public Reply call(int op, String path, byte[] field, byte[] payload) {
        return callVia("/cli/r/" + (nextRequest++), op, path, field, payload);
    }

    /** Sends FWD{op, path, [field], src = replyRoute, [payload]} and waits for its REPLY. */
    public Reply callVia(String replyRoute, int op, String path, byte[] field, byte[] payload) {
        NodePath dst = NodePath.of(path);
        NodePath src = NodePath.of(replyRoute);
        TlvWriter w = writer.wrap(out, 0, out.length);
        w.begin(TlvType.FWD).value(op, 1).raw(dst.tlv());
        if (field != null) {
            w.raw(field);
        }
        w.raw(src.tlv());
        if (payload != null) {
            w.raw(payload);
        }
        w.end();
        if (w.error() != WireError.OK) {
            return new Reply(w.error(), null);
        }
        awaitedRoute = Arrays.copyOfRange(src.tlv(), src.bodyOffset(), src.bodyOffset() + src.bodyLength());
        awaited = null;
        int sent = send(out, w.length());
        if (sent != WireError.OK) {
            awaitedRoute = null;
            return new Reply(sent, null);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (awaited == null && System.nanoTime() < deadline) {
            if (link.poll(handler, 32) == 0) {
                LockSupport.parkNanos(200_000);
            }
        }
        Reply r = awaited != null ? awaited : new Reply(WireError.FLOW_TIMEOUT, null);
        awaitedRoute = null;
        awaited = null;
        return r;
    }

    /** Polls the link for {@code d}, handing each delivery to {@code sink}. */
    public void pump(Duration d, Consumer<Delivery> sink) {
        long deadline = System.nanoTime() + d.toNanos();
        do {
            int n = link.poll(handler, 32);
            for (Delivery x : pending) {
                sink.accept(x);
            }
            pending.clear();
            if (n == 0) {
                LockSupport.parkNanos(500_000);
            }
        } while (System.nanoTime() < deadline);
    }

    private int send(byte[] b, int len) {
        if (tap != null) {
            tap.frame(true, b, 0, len);
        }
        return link.send(peer, b, 0, len);
    }

    private void onFrame(Link l, int p, byte[] buf, int off, int len) {
        if (tap != null) {
            tap.frame(false, buf, off, len);
        }
        if (decoder.decode(buf, off, len, idx) != WireError.OK || fwd.wrap(idx, 0) != WireError.OK
                || idx.type(fwd.dst()) != TlvType.PATH) {
            return;
        }
        final int dst = fwd.dst();
        final int op = fwd.opcode();
        if (op == FwdView.OP_REPLY) {
            if (awaitedRoute != null && idx.payloadEquals(dst, awaitedRoute)) {
                awaited = reply();
            }
        } else if (op == FwdView.OP_WRITE && fwd.srcEmpty()) {
            int value = fwd.payload();
            if (value == TlvIndex.NONE) {
                return;
            }
            byte[] v = Arrays.copyOfRange(buf, idx.start(value), idx.start(value) + idx.untrailedLength(value));
            boolean stamped = false;
            long seq = 0;
            boolean stale = false;
            boolean deleted = false;
            int stamp = idx.nextSibling(value);
            if (stamp != TlvIndex.NONE && idx.type(stamp) == TlvType.SETTINGS) {
                int k = idx.firstChild(stamp);
                int inner = k == TlvIndex.NONE ? TlvIndex.NONE : idx.nextSibling(k);
                if (k != TlvIndex.NONE && idx.payloadEquals(k, Names.TOPIC) && inner != TlvIndex.NONE && idx.type(inner) == TlvType.SETTINGS) {
                    stamped = true;
                    for (int c = idx.firstChild(inner); c != TlvIndex.NONE; c = idx.nextSibling(c)) {
                        int val = idx.nextSibling(c);
                        if (val == TlvIndex.NONE) {
                            break;
                        }
                        if (idx.payloadEquals(c, Names.STAMP_SEQ)) {
                            seq = idx.valueAsLong(val);
                        } else if (idx.payloadEquals(c, Names.STAMP_STALE)) {
                            stale = idx.valueAsLong(val) != 0;
                        } else if (idx.payloadEquals(c, Names.STAMP_OP)) {
                            deleted = idx.valueAsLong(val) != 0;
                        }
                        c = val;
                    }
                }
            }
            String route = NodePath.render(buf, idx.bodyOffset(dst), idx.bodyLength(dst));
            pending.add(new Delivery(route, v, stamped, seq, stale, deleted));
        }
    }

    /** The awaited REPLY just read into {@link #fwd}: RESULT with its payload (none for a bare ack), or the error code. */
    private Reply reply() {
        if (fwd.kind() == FwdView.KIND_ERROR) {
            return new Reply(StatusView.errorCode(idx, fwd.payload(), WireError.FRAME_INVALID), null);
        }
        int payload = fwd.payload();
        if (payload == TlvIndex.NONE) {
            return new Reply(WireError.OK, null);
        }
        byte[] b = idx.buffer();
        return new Reply(WireError.OK, Arrays.copyOfRange(b, idx.start(payload), idx.start(payload) + idx.untrailedLength(payload)));
    }

    @Override
    public void close() {
        link.close();
    }
}
