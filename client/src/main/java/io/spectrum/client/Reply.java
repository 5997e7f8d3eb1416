package io.spectrum.client;

import io.spectrum.wire.WireError;

import java.util.HexFormat;

/**
 * The outcome of one request: the node's RESULT (code {@link WireError#OK}, the value TLV or none
 * for a bare acknowledgement), the node's ERROR (its registry code), or a local refusal when no
 * answer came (e.g. {@link WireError#FLOW_TIMEOUT}, or the transport's code). Never thrown.
 */
public final class Reply {
    private final int code;
    private final byte[] value;
    private final byte[] frame;
    private final long seq;
    private final boolean stale;
    private final String reason;
    private final long origin;
    private final String publisher;

    private Reply(int code, byte[] value, byte[] frame) {
        this(code, value, frame, -1, false, null, 0, null);
    }

    private Reply(int code, byte[] value, byte[] frame, long seq, boolean stale, String reason, long origin,
            String publisher) {
        this.publisher = publisher;
        this.code = code;
        this.value = value;
        this.frame = frame;
        this.seq = seq;
        this.stale = stale;
        this.reason = reason;
        this.origin = origin;
    }

    /** A RESULT the node sent; {@code value} null for a bare acknowledgement. */
    public static Reply result(byte[] value, byte[] frame) {
        return new Reply(WireError.OK, value, frame);
    }

    /**
     * A READ's RESULT that carried the node's topic stamp ({@link PeerClient#readStamped}): the value's
     * sequence, whether it is stale and why (null when fresh or no reason was given), and its origin
     * time (ms since the Unix epoch, 0: none; docs/extensions.md "Origin time").
     */
    public static Reply stamped(byte[] value, byte[] frame, long seq, boolean stale, String reason, long origin) {
        return stamped(value, frame, seq, stale, reason, origin, null);
    }

    /** As {@link #stamped(byte[], byte[], long, boolean, String, long)}, naming the vertex's last publisher (null: none given). */
    public static Reply stamped(byte[] value, byte[] frame, long seq, boolean stale, String reason, long origin,
            String publisher) {
        return new Reply(WireError.OK, value, frame, seq, stale, stale ? reason : null, origin, publisher);
    }

    /** An ERROR the node sent. */
    public static Reply error(int code, byte[] frame) {
        return new Reply(code, null, frame);
    }

    /**
     * A READ's ERROR that carried the node's stamp: a declared vertex with no value yet that is marked
     * stale, {@code reason} saying why (a source that failed from its first read; docs/extensions.md
     * "On a READ answer").
     */
    public static Reply errorStamped(int code, byte[] frame, long seq, String reason) {
        return errorStamped(code, frame, seq, true, reason, null);
    }

    /**
     * A READ's ERROR with the node's stamp for a vertex that holds no value: marked stale (as above), or
     * not stale after numbers were spent on it (cleared, purged, published only unretained): its
     * sequence and, from a WIDE node, its last publisher (docs/extensions.md "On a READ answer").
     */
    public static Reply errorStamped(int code, byte[] frame, long seq, boolean stale, String reason, String publisher) {
        return new Reply(code, null, frame, seq, stale, stale ? reason : null, 0, publisher);
    }

    /** The vertex's last publisher as the node named it on a stamped READ answer (a WIDE node), or null. */
    public String publisher() {
        return publisher;
    }

    /** No answer: the request timed out or could not be sent. */
    public static Reply local(int code) {
        return new Reply(code, null, null);
    }

    /** True for a RESULT. */
    public boolean ok() {
        return code == WireError.OK;
    }

    /** {@link WireError#OK} for a RESULT, else the refusal's registry code. */
    public int code() {
        return code;
    }

    /** True when the node answered (RESULT or ERROR), false for a local refusal. */
    public boolean answered() {
        return frame != null;
    }

    /** True when the node answered with an ERROR. */
    public boolean isError() {
        return answered() && !ok();
    }

    /** The answered TLV (READ / AWAIT result, append identity), or null. A copy. */
    public byte[] value() {
        return value == null ? null : value.clone();
    }

    /** True when the answer carried the node's topic stamp ({@link #seq}, {@link #stale}, {@link #staleReason}). */
    public boolean stamped() {
        return seq >= 0;
    }

    /** The stamped value's sequence, or -1 when the answer carried no stamp. */
    public long seq() {
        return seq;
    }

    /** True when the stamp marks the value stale: it is not current (see {@link #staleReason}). */
    public boolean stale() {
        return stale;
    }

    /** Why the value is stale, as the node said it ({@link io.spectrum.wire.StaleReason}), or null. */
    public String staleReason() {
        return reason;
    }

    /** The stamped value's origin time, ms since the Unix epoch, 0 when the stamp carries none. */
    public long origin() {
        return origin;
    }

    /** The whole REPLY frame as received, or null for a local refusal. A copy. */
    public byte[] frame() {
        return frame == null ? null : frame.clone();
    }

    @Override
    public String toString() {
        if (ok()) {
            return "RESULT " + (value == null ? "(no payload)" : HexFormat.of().formatHex(value));
        }
        String id = WireError.identity(code);
        String name = id != null ? id : "0x" + Integer.toHexString(code);
        return (answered() ? "ERROR " : "no reply: ") + name;
    }
}
