package io.spectrum.node.api;

/**
 * A delivery seen by a {@link ValueListener}: the written value TLV (header and payload, no
 * trailer) and the PATH of the vertex that was written (a descendant of the subscribed vertex for
 * subtree subscribers). Read-only: a flyweight the node re-points for each delivery, valid only
 * during the callback, that exposes no buffer. A listener reads bytes or copies the value out
 * ({@link #copyTo}, allocation-free into its own buffer) and so cannot write the node's value pool.
 * The node's writable implementation is package-private to the node.
 */
public interface VertexValue extends VertexPath {
    /** Bytes in the value TLV (header and payload). */
    int length();

    /** Byte {@code i} (0 .. length()-1) of the value TLV. */
    byte getByte(int i);

    /** The value TLV's type byte. */
    default int type() {
        return getByte(0) & 0xFF;
    }

    /**
     * Copies the value TLV into {@code dst} at {@code off} (no allocation).
     *
     * @return bytes copied, or a negated {@link io.spectrum.wire.WireError#FLOW_BACKPRESSURE} when
     *     {@code dst} has less room than {@link #length()}
     */
    int copyTo(byte[] dst, int off);

    /** True for the delete notice of a notifying clear (the value is then the empty STATUS). */
    boolean deleted();

    /** Copies the value TLV out (allocates; tests and diagnostics). */
    default byte[] copy() {
        byte[] r = new byte[length()];
        copyTo(r, 0);
        return r;
    }
}
