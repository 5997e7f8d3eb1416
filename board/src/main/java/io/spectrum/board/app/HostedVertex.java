package io.spectrum.board.app;

import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import io.spectrum.node.api.ValueListener;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.node.api.VertexValue;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

import java.nio.charset.StandardCharsets;

/**
 * An {@link AppVertex} on the board's node. Publishing encodes into a buffer sized once from the
 * declaration and writes the node (no allocation). A peer's write is heard by a local subscription;
 * its handler runs on the loop after the delivery (as a task, so it may publish).
 */
final class HostedVertex implements AppVertex, ValueListener, Runnable {
    private final AppHost host;
    private final String label;
    private final NarrowNode node;
    private final NodePath path;
    private final VertexSchema schema;
    private final byte[] buf;
    private final TlvWriter w = new TlvWriter(4);
    /** A delivered value, copied out to be read by the declaration (the body is its last width bytes). */
    private final byte[] scratch;
    private WriteHandler handler;
    private Subscription subscription;
    private boolean publishing;
    private boolean queued;
    private long raw;
    private long written;

    HostedVertex(AppHost host, String label, NarrowNode node, NodePath path, VertexSchema schema) {
        this.host = host;
        this.label = label;
        this.node = node;
        this.path = path;
        this.schema = schema;
        this.buf = new byte[schema.maxSize() + 16];
        this.scratch = new byte[schema.maxSize() + 16];
    }

    @Override
    public NodePath path() {
        return path;
    }

    @Override
    public VertexSchema schema() {
        return schema;
    }

    @Override
    public int publish(long value) {
        if (schema.type() != TlvType.VALUE || !fitsWidth(value)) {
            return WireError.SCHEMA_TYPE_MISMATCH;
        }
        w.wrap(buf, 0, buf.length).value(value, schema.width());
        int r = write(w.length());
        if (r == WireError.OK) {
            raw = value;
        }
        return r;
    }

    /**
     * Whether {@code value} is a raw value of the declared width and sign: the encoder keeps only the
     * low bytes, so 70000 on an i16 would be published as 4464.
     */
    private boolean fitsWidth(long value) {
        int bits = 8 * schema.width();
        if (bits >= 64) {
            return true;
        }
        return schema.signed() ? value >= -(1L << (bits - 1)) && value < 1L << (bits - 1) : value >= 0 && value < 1L << bits;
    }

    @Override
    public int publishUnit(double value) {
        double raw = (value - schema.offset()) / schema.scale();
        if (!(raw > -9.2e18 && raw < 9.2e18)) { // NaN, infinite, or past a long: not a value (Math.round would make one up)
            return WireError.SCHEMA_TYPE_MISMATCH;
        }
        return publish(schema.fromUnit(value));
    }

    @Override
    public int publishText(String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        if (b.length > schema.maxSize()) {
            return WireError.SCHEMA_TYPE_MISMATCH;
        }
        w.wrap(buf, 0, buf.length).leaf(schema.type(), b);
        return write(w.length());
    }

    private int write(int len) {
        publishing = true;
        try {
            return node.write(path, buf, 0, len);
        } finally {
            publishing = false;
        }
    }

    @Override
    public int markStale(String reason) {
        return node.markStale(path, reason);
    }

    @Override
    public long raw() {
        return raw;
    }

    @Override
    public void onWrite(WriteHandler h) {
        if (handler != null) {
            throw new IllegalStateException(path + " already has a write handler");
        }
        handler = h;
        subscription = node.subscribe(path, 0, this);
        if (subscription.error() != WireError.OK) {
            throw new IllegalStateException("cannot hear writes of " + path + ": " + WireError.identity(subscription.error()));
        }
    }

    /** A delivery: a peer's write (our own publishes are ignored). */
    @Override
    public void onValue(Subscription s, VertexValue value, long seq, boolean stale) {
        if (publishing || value.deleted() || value.type() != TlvType.VALUE || !isThisVertex(value)) {
            return;
        }
        int width = schema.width();
        int len = value.copyTo(scratch, 0);
        if (width == 0 || len < width) {
            return;
        }
        long v = schema.rawValue(scratch, len - width);
        written = v;
        raw = v;
        if (!queued) {
            queued = true;
            host.submit(this);
        }
    }

    /** The delivery is of this vertex, not a descendant (compared byte by byte: no allocation). */
    private boolean isThisVertex(VertexValue value) {
        int n = path.bodyLength();
        if (value.pathLength() != n) {
            return false;
        }
        byte[] tlv = path.tlv();
        int off = path.bodyOffset();
        for (int i = 0; i < n; i++) {
            if (value.pathByte(i) != tlv[off + i]) {
                return false;
            }
        }
        return true;
    }

    /** The handler's turn on the loop. */
    @Override
    public void run() {
        queued = false;
        long v = written;
        WriteHandler h = handler;
        if (h != null) {
            try {
                h.onWrite(this, v);
            } catch (RuntimeException e) {
                System.err.println("board: " + label + ": write of " + path + ": " + e.getMessage());
            }
        }
    }
}
