package io.spectrum.node.api;

import io.spectrum.wire.Opt;
import io.spectrum.wire.WireError;

/**
 * The one rule every core applies to a value before it is assigned to a vertex (a write, local or
 * remote, and a declaration over a value already held): the value must fit the vertex's
 * {@link VertexSchema} ({@code tr::schema::type_mismatch} otherwise), the node's payload cap, and
 * one frame together with the envelope of a READ answer or a delivery ({@code flow::backpressure}
 * otherwise: a value that could never be read back is refused when it is written). Allocation-free.
 */
public final class ValueAdmission {
    private ValueAdmission() {
    }

    /**
     * @param schema the vertex's declaration, or null
     * @param b the trailer-less value TLV is {@code b[off, off+len)}
     * @param keyLen bytes of the vertex's PATH body
     * @param payloadCap the node's largest value TLV ({@link NodeConfig#payloadCap()})
     * @param frameBytes the node's largest frame ({@link NodeConfig#frameBytes()})
     * @return status: OK, SCHEMA_TYPE_MISMATCH or FLOW_BACKPRESSURE
     */
    public static int admit(VertexSchema schema, byte[] b, int off, int len, int keyLen, int payloadCap, int frameBytes) {
        if (schema != null) {
            final int h = Opt.headerSize(b[off + 1] & 0xFF);
            final int r = schema.check(b[off] & 0xFF, b, off + h, (int) Opt.bodyLength(b, off));
            if (r != WireError.OK) {
                return r;
            }
        }
        if (len > payloadCap || len > frameBytes - envelope(keyLen)) {
            return WireError.FLOW_BACKPRESSURE;
        }
        return WireError.OK;
    }

    /**
     * Bytes around a value in the frame that carries it back: FWD header (4), op (5), answer kind
     * (5), a topic stamp (14), the vertex's own PATH (4 + key) and a return route taken to be no
     * longer than that PATH (a reply endpoint or a subscriber's route usually is shorter).
     */
    static int envelope(int keyLen) {
        return 36 + 2 * keyLen;
    }
}
