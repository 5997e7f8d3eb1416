package io.spectrum.hil.client;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;
import java.util.function.Predicate;

/**
 * A host-side libtracer client for the conformance suite: it speaks FWD over a {@link Link} to one
 * peer (the board) byte for byte, records everything that comes back, and correlates replies by
 * giving each request its own reply endpoint (digest §5.2 [rec]: the reply's dst is the request's
 * src). Single-threaded: the caller's thread polls the link while it waits. WIDE-side code, so it
 * allocates freely.
 */
public final class BoardClient {
    /** Prefix of this client's reply endpoints; deliveries use routes the caller names. */
    public static final String REPLY_PREFIX = "/hil/r/";

    private final Link link;
    private final int peer;
    private final Duration timeout;
    private final List<Inbound> inbound = new ArrayList<>();
    private final List<Delivery> deliveries = new ArrayList<>();
    private final FrameHandler recorder = this::record;
    private long nextRequest = 1;
    private IntSupplier dutyCycle;

    /**
     * Lets a node loop own the link (a host node riding on it): each pump runs {@code dutyCycle}
     * (the runtime's node agent, which polls the link and hands every frame to {@link #recorder()}
     * before its node) instead of polling the link here. Null: the client polls the link itself.
     */
    public void pumpWith(IntSupplier dutyCycle) {
        this.dutyCycle = dutyCycle;
    }

    /** Where inbound frames go to be recorded (for a loop that polls the link on this client's behalf). */
    public FrameHandler recorder() {
        return recorder;
    }
    private int refusedInbound;

    /** One frame that arrived, decoded, or with the codec's refusal code. */
    public record Inbound(long seq, long nanos, Tlv frame, int refusal, byte[] raw) {
    }

    public BoardClient(Link link, int peer, Duration timeout) {
        this.link = link;
        this.peer = peer;
        this.timeout = timeout;
    }

    public Link link() {
        return link;
    }

    public Duration timeout() {
        return timeout;
    }

    // ---- requests ---------------------------------------------------------------------------

    public Reply read(String path) {
        return call(FwdView.OP_READ, Wire.path(path), null);
    }

    public Reply read(String path, byte[] field) {
        return call(FwdView.OP_READ, Wire.path(path), field);
    }

    public Reply write(String path, byte[] payload) {
        return call(FwdView.OP_WRITE, Wire.path(path), null, payload);
    }

    public Reply write(String path, byte[] field, byte[] payload) {
        return call(FwdView.OP_WRITE, Wire.path(path), field, payload);
    }

    /**
     * Appends SUBSCRIBER{route, policy} to {@code vertex:subscribers[]}. The request's src is the
     * route too, so the board binds the edge to this link + that route and delivers
     * FWD{WRITE, dst = route} here; the reply to the subscribe comes back on the same route.
     */
    public Reply subscribe(String vertex, String route, Integer policy) {
        byte[] sub = Wire.subscriber(route, policy);
        return callVia(route, FwdView.OP_WRITE, Wire.path(vertex), Wire.subscribersAppend(), sub);
    }

    /** Appends a SUBSCRIBER that asks for the node's topic stamp (sequence, stale) on each delivery. */
    public Reply subscribeStamped(String vertex, String route, Integer policy) {
        byte[] sub = Wire.stampedSubscriber(route, policy);
        return callVia(route, FwdView.OP_WRITE, Wire.path(vertex), Wire.subscribersAppend(), sub);
    }

    /** Sends a request with a fresh reply endpoint and waits for its REPLY. */
    public Reply call(int op, byte[] dst, byte[] field, byte[]... payload) {
        return callVia(REPLY_PREFIX + (nextRequest++), op, dst, field, payload);
    }

    /** Sends a request whose src is {@code replyRoute} and waits for the REPLY addressed to it. */
    public Reply callVia(String replyRoute, int op, byte[] dst, byte[] field, byte[]... payload) {
        byte[] frame = Wire.fwd(op, dst, field, Wire.path(replyRoute), payload);
        long mark = mark();
        sendOrThrow(frame);
        Inbound in = awaitFrame(mark, f -> isReplyTo(f, replyRoute), timeout);
        if (in == null) {
            throw new WireException(WireError.FLOW_TIMEOUT,
                    "no reply to " + opName(op) + " " + Tlv.decode(dst) + " within " + timeout.toMillis() + " ms");
        }
        return new Reply(in.frame());
    }

    /**
     * Sends raw bytes as one frame over the link (the link adds its own framing). While the link
     * pushes back (a previous frame still partly unsent) it keeps polling and retries, up to the
     * timeout.
     */
    public int send(byte[] frame) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            int rc = link.send(peer, frame, 0, frame.length);
            if (rc != WireError.FLOW_BACKPRESSURE || System.nanoTime() - deadline > 0) {
                return rc;
            }
            if (pumpOnce() == 0) {
                LockSupport.parkNanos(200_000L);
            }
        }
    }

    public void sendOrThrow(byte[] frame) {
        int rc = send(frame);
        if (rc != WireError.OK) {
            throw new WireException(rc, "link refused a frame: " + WireError.identity(rc));
        }
    }

    // ---- what came back ---------------------------------------------------------------------

    /** A position in the inbound record; frames after it are "new". */
    public long mark() {
        pumpOnce();
        return inbound.isEmpty() ? 0 : inbound.get(inbound.size() - 1).seq();
    }

    public List<Inbound> inboundSince(long mark) {
        List<Inbound> out = new ArrayList<>();
        for (Inbound in : inbound) {
            if (in.seq() > mark) {
                out.add(in);
            }
        }
        return out;
    }

    public List<Delivery> deliveries(String route) {
        List<Delivery> out = new ArrayList<>();
        for (Delivery d : deliveries) {
            if (d.route().equals(route)) {
                out.add(d);
            }
        }
        return out;
    }

    /** Deliveries to {@code route} that arrived after {@code mark}. */
    public List<Delivery> deliveriesSince(String route, long markNanos) {
        List<Delivery> out = new ArrayList<>();
        for (Delivery d : deliveries(route)) {
            if (d.receivedNanos() > markNanos) {
                out.add(d);
            }
        }
        return out;
    }

    /** Waits until {@code route} has at least {@code count} deliveries after {@code sinceNanos}. */
    public List<Delivery> awaitDeliveries(String route, long sinceNanos, int count, Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        while (true) {
            List<Delivery> got = deliveriesSince(route, sinceNanos);
            if (got.size() >= count || System.nanoTime() - deadline > 0) {
                return got;
            }
            pumpFor(Duration.ofMillis(5));
        }
    }

    public int refusedInbound() {
        return refusedInbound;
    }

    /** Polls the link for {@code d}, recording everything. */
    public void pumpFor(Duration d) {
        long deadline = System.nanoTime() + d.toNanos();
        do {
            if (pumpOnce() == 0) {
                LockSupport.parkNanos(1_000_000L);
            }
        } while (System.nanoTime() - deadline < 0);
    }

    public int pumpOnce() {
        IntSupplier cycle = dutyCycle;
        int total = 0;
        int n;
        do {
            n = cycle != null ? cycle.getAsInt() : link.poll(recorder, 64);
            total += n;
        } while (n > 0);
        return total;
    }

    /** Waits for the first frame after {@code mark} that matches. */
    public Inbound awaitFrame(long mark, Predicate<Tlv> match, Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        int scanned = 0;
        while (true) {
            List<Inbound> fresh = inboundSince(mark);
            for (int i = scanned; i < fresh.size(); i++) {
                Inbound in = fresh.get(i);
                if (in.frame() != null && match.test(in.frame())) {
                    return in;
                }
            }
            scanned = fresh.size();
            if (System.nanoTime() - deadline > 0) {
                return null;
            }
            if (pumpOnce() == 0) {
                LockSupport.parkNanos(1_000_000L);
            }
        }
    }

    private void record(Link from, int fromPeer, byte[] buf, int off, int len) {
        long now = System.nanoTime();
        long seq = inbound.isEmpty() ? 1 : inbound.get(inbound.size() - 1).seq() + 1;
        byte[] raw = Arrays.copyOfRange(buf, off, off + len);
        Tlv frame = null;
        int refusal = WireError.OK;
        try {
            frame = Tlv.decode(raw);
        } catch (WireException e) {
            refusal = e.code();
            refusedInbound++;
        }
        inbound.add(new Inbound(seq, now, frame, refusal, raw));
        FwdView f = frame == null ? null : frame.asFwd();
        if (f != null && f.opcode() == FwdView.OP_WRITE && f.index().type(f.dst()) == TlvType.PATH) {
            deliveries.add(new Delivery(dstText(f), frame, now));
        }
    }

    // ---- helpers ----------------------------------------------------------------------------

    /** The opcode of a FWD frame as {@link FwdView} reads it, or -1 when it is not a well-formed FWD. */
    public static int opOf(Tlv fwd) {
        FwdView f = fwd.asFwd();
        return f == null ? -1 : f.opcode();
    }

    /** Whether {@code frame} is a REPLY addressed to {@code route} (read by {@link FwdView}). */
    public static boolean isReplyTo(Tlv frame, String route) {
        FwdView f = frame.asFwd();
        return f != null && f.opcode() == FwdView.OP_REPLY && f.index().type(f.dst()) == TlvType.PATH
                && dstText(f).equals(route);
    }

    /** The dst PATH of a FWD frame as text (read by {@link FwdView}), or null when it has none. */
    public static String dstOf(Tlv frame) {
        FwdView f = frame.asFwd();
        return f == null || f.index().type(f.dst()) != TlvType.PATH ? null : dstText(f);
    }

    private static String dstText(FwdView f) {
        TlvIndex x = f.index();
        return Wire.pathText(java.util.Arrays.copyOfRange(x.buffer(), x.bodyOffset(f.dst()), x.bodyOffset(f.dst()) + x.bodyLength(f.dst())));
    }

    static String opName(int op) {
        return FwdView.opName(op);
    }
}
