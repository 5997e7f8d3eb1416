package io.spectrum.client;

import io.spectrum.node.api.NodePath;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.StatusView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Takes inbound frames apart with the wire's {@link FrameDecoder} and {@link FwdView}: a REPLY whose
 * dst is the awaited reply route becomes the awaited {@link Reply} (matching by route: a reply's
 * dst is the request's src); a WRITE is handed to the sink as a {@link Delivery} view of the link's
 * bytes, valid during the sink call (nothing copied unless the sink asks), its topic stamp read
 * with {@link io.spectrum.wire.StampView}. A READ that wants an answer (the peer's liveness ping, a READ of
 * {@code $node/caps}) is answered {@code path::not_found}: a client serves no vertices, but its
 * answer is the traffic that keeps the peer from timing it out and reaping its slots while the
 * client only listens ({@link #takeAnswer}, sent by {@link PeerClient} after the poll). Anything
 * else (other replies, other requests, undecodable frames) is ignored.
 */
final class Inbox implements Transport.Sink {
    /** The owning client's clock: a delivery's receive time. */
    private final java.util.function.LongSupplier nanos;
    private final FrameDecoder decoder = new FrameDecoder();
    private final TlvIndex idx = new TlvIndex(4096, 32);
    private final FwdView fwd = new FwdView();
    private final io.spectrum.wire.StampView stamp = new io.spectrum.wire.StampView();
    private byte[] awaitedRoute;
    private Reply awaited;
    private Consumer<Delivery> deliveries;
    /** The one delivery handed to the sink, re-pointed at each WRITE (a view of the link's bytes). */
    private final Delivery view = new Delivery();
    /** Answers to requests, waiting to be sent (bounded: a flood of READs is not answered past it). */
    private final java.util.ArrayDeque<byte[]> answers = new java.util.ArrayDeque<>();
    private static final int MAX_ANSWERS = 16;
    private final byte[] answerBuf = new byte[1024];
    private final io.spectrum.wire.TlvWriter answerWriter = new io.spectrum.wire.TlvWriter();

    Inbox(java.util.function.LongSupplier nanos) {
        this.nanos = nanos;
    }

    void deliverTo(Consumer<Delivery> sink) {
        deliveries = sink;
    }

    /** Starts waiting for the REPLY addressed to the PATH TLV {@code route}. */
    void await(byte[] route) {
        awaited = null;
        awaitedRoute = decoder.decode(route, 0, route.length, idx) == WireError.OK
                ? Arrays.copyOfRange(route, idx.bodyOffset(0), idx.bodyOffset(0) + idx.bodyLength(0)) : null;
    }

    /** The matched reply, or null while none came. */
    Reply awaited() {
        return awaited;
    }

    void stopAwaiting() {
        awaitedRoute = null;
        awaited = null;
    }

    @Override
    public void frame(byte[] buf, int off, int len) {
        if (decoder.decode(buf, off, len, idx) != WireError.OK || fwd.wrap(idx, 0) != WireError.OK
                || idx.type(fwd.dst()) != TlvType.PATH) {
            return;
        }
        if (fwd.opcode() == FwdView.OP_REPLY) {
            if (awaitedRoute != null && awaited == null
                    && fwd.dstEquals(awaitedRoute, 0, awaitedRoute.length)) {
                awaited = reply(Arrays.copyOfRange(buf, off, off + len));
            }
        } else if (fwd.opcode() == FwdView.OP_WRITE && deliveries != null && fwd.payload() != TlvIndex.NONE) {
            deliver(buf, off, len);
        } else if (fwd.opcode() == FwdView.OP_READ && !fwd.srcEmpty() && answers.size() < MAX_ANSWERS) {
            int n = io.spectrum.wire.FwdRewrite.errorReply(fwd, WireError.PATH_NOT_FOUND,
                    answerWriter.wrap(answerBuf, 0, answerBuf.length));
            if (n > 0) {
                answers.add(Arrays.copyOf(answerBuf, n));
            }
        }
    }

    /** The next answer to a request this client was sent, or null. */
    byte[] takeAnswer() {
        return answers.poll();
    }

    /** The REPLY just read into {@link #fwd}: RESULT with its payload (none for a bare ack), or the code. */
    private Reply reply(byte[] frame) {
        if (fwd.kind() == FwdView.KIND_ERROR) {
            int code = StatusView.errorCode(idx, fwd.payload(), WireError.FRAME_INVALID);
            if (stamp.wrap(idx, fwd.afterPayload()) && (stamp.stale() || stamp.seq() > 0)) { // no value now, and where it stands
                return Reply.errorStamped(code, frame, stamp.seq(), stamp.stale(), reason(), publisher());
            }
            return Reply.error(code, frame);
        }
        if (stamp.wrap(idx, fwd.afterPayload())) { // a READ that asked for the stamp (PeerClient#readStamped)
            return Reply.stamped(copy(fwd.payload()), frame, stamp.seq(), stamp.stale(), reason(), stamp.origin(),
                    publisher());
        }
        return Reply.result(copy(fwd.payload()), frame);
    }

    /**
     * Hands the WRITE just read into {@link #fwd} to the sink as the {@link #view} pointed at the link's
     * bytes (no copy: {@link Delivery} says how long it is valid), released when the sink returns. A
     * sink that polls the client again gets a view of its own for the nested frame.
     */
    private void deliver(byte[] buf, int off, int len) {
        final int dst = fwd.dst();
        String route = NodePath.render(idx.buffer(), idx.bodyOffset(dst), idx.bodyLength(dst));
        final boolean stamped = stamp.wrap(idx, fwd.afterPayload());
        final int p = stamp.path();
        String source = p == TlvIndex.NONE ? null : NodePath.render(idx.buffer(), idx.bodyOffset(p), idx.bodyLength(p));
        final int v = fwd.payload();
        Delivery d = view.pointed() ? new Delivery() : view;
        d.point(buf, off, len, idx.start(v), idx.end(v) - idx.start(v), route, fwd.srcEmpty(), stamped, stamp.seq(),
                stamp.stale(), stamp.deleted(), source, nanos.getAsLong(), stamp.dlv(), stamp.replaced(), reason(),
                stamp.origin());
        try {
            deliveries.accept(d);
        } finally {
            d.release();
        }
    }

    /**
     * The wrapped stamp's {@code reason} (UTF-8 text, docs/extensions.md "Delivery stamp"), or null when
     * the value is fresh, carries none, or it is not valid UTF-8.
     */
    /** The stamp's last publisher (a READ's answer from a WIDE node), or null. */
    private String publisher() {
        return text(stamp.publisherOffset(), stamp.publisherLength());
    }

    private String reason() {
        return text(stamp.reasonOffset(), stamp.reasonLength());
    }

    /** The stamp's UTF-8 text at {@code off, +n} of the frame, or null when empty or not valid UTF-8. */
    private String text(int off, int n) {
        return n == 0 || !io.spectrum.wire.Utf8.isValid(idx.buffer(), off, n) ? null
                : io.spectrum.wire.Utf8.toString(idx.buffer(), off, n);
    }

    /** The TLV at entry {@code e} exactly as received (trailers included), or null. */
    private byte[] copy(int e) {
        return e == TlvIndex.NONE ? null : Arrays.copyOfRange(idx.buffer(), idx.start(e), idx.end(e));
    }
}
