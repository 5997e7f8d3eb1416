package io.spectrum.node.fwd;

import io.spectrum.node.api.NodeResult;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.Names;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

/**
 * The {@code :settings} and {@code :schema} fields of a vertex. The core
 * namespace is empty; the owner's {@link VertexSchema} declaration, when the vertex has one, is the
 * read-only {@code settings.app} namespace:
 *
 * <ul>
 *   <li>READ {@code :settings} → {@code SETTINGS{}} or {@code SETTINGS{NAME app, SETTINGS{…}}};</li>
 *   <li>READ {@code :settings.app} → the declaration's {@code SETTINGS{…}}; undeclared ⇒
 *       {@code schema::not_found};</li>
 *   <li>READ {@code :settings.app.<key>} → that key's value TLV; an absent key ⇒ not_found;</li>
 *   <li>READ {@code :schema} → {@code POINT{NAME <leaf>, SETTINGS{}, [NAME app, SETTINGS{…}]}};</li>
 *   <li>WRITE of any of them: a declared key ⇒ {@code access::denied} (declarations are the owner's
 *       and read-only on the wire); anything else ⇒ {@code schema::not_found}.</li>
 * </ul>
 * Answers are built in the scratch buffer; allocation-free.
 */
final class SettingsField {
    private static final byte[] NO_BYTES = new byte[0];

    private final FwdRequest req;
    private final FieldSelector sel;
    private final FwdStore vt;
    private final ChildOrder order;
    private final FrameBuffers buffers;

    SettingsField(FwdParts p) {
        this.req = p.req;
        this.sel = p.sel;
        this.vt = p.store;
        this.order = p.order;
        this.buffers = p.buffers;
    }

    /** READ of {@code :settings…} on the readable vertex v (the selector is parsed). */
    void readSettings(int v) {
        final TlvIndex x = req.rx;
        final VertexSchema sc = vt.described(v);
        if (!sel.scalar || sel.levels > 3) {
            req.replyError(WireError.SCHEMA_NOT_FOUND);
            return;
        }
        if (sel.levels == 1) {
            if (sc == null) {
                req.replyResult(FixedTlvs.EMPTY_SETTINGS, 0, FixedTlvs.EMPTY_SETTINGS.length);
                return;
            }
            TlvWriter t = buffers.scratchWriter().begin(TlvType.SETTINGS).leaf(TlvType.NAME, Names.APP);
            reply(t, sc);
            return;
        }
        if (sc == null || !x.payloadEquals(sel.second, Names.APP)) {
            req.replyError(WireError.SCHEMA_NOT_FOUND); // core knobs and undeclared app names
            return;
        }
        if (sel.levels == 2) {
            int n = sc.copySettings(buffers.scratch, 0, buffers.scratch.length);
            answer(n);
            return;
        }
        int n = sc.copyKey(x.buffer(), x.bodyOffset(sel.third), x.bodyLength(sel.third),
                buffers.scratch, 0, buffers.scratch.length);
        answer(n);
    }

    /** READ of {@code :schema} on the readable vertex v. */
    void readSchema(int v) {
        if (!sel.scalar || sel.levels != 1) {
            req.replyError(WireError.SCHEMA_NOT_FOUND);
            return;
        }
        TlvWriter t = buffers.scratchWriter().begin(TlvType.POINT);
        if (v == 0) {
            t.leaf(TlvType.NAME, NO_BYTES, 0, 0);
        } else {
            final int at = order.lastSegment(v);
            final byte[] k = vt.keys(v);
            t.leaf(TlvType.NAME, k, at + 1, k[at] & 0xFF);
        }
        t.raw(Names.EMPTY_SETTINGS);
        final VertexSchema sc = vt.described(v);
        if (sc == null) {
            t.end();
            answer(t.error() == WireError.OK ? t.length() : NodeResult.refusal(WireError.FLOW_BACKPRESSURE));
            return;
        }
        t.leaf(TlvType.NAME, Names.APP);
        reply(t, sc);
    }

    /** WRITE of {@code :settings…}: declarations are read-only on the wire. */
    void write(int v) {
        final TlvIndex x = req.rx;
        final VertexSchema sc = vt.described(v);
        if (sc != null && sel.scalar && sel.levels == 3 && x.payloadEquals(sel.second, Names.APP)
                && sc.copyKey(x.buffer(), x.bodyOffset(sel.third), x.bodyLength(sel.third), buffers.scratch, 0,
                        buffers.scratch.length) >= 0) {
            req.replyError(WireError.ACCESS_DENIED);
            return;
        }
        req.replyError(WireError.SCHEMA_NOT_FOUND);
    }

    /** Appends the declaration to the open container of {@code t}, closes it and answers. */
    private void reply(TlvWriter t, VertexSchema sc) {
        sc.writeSettings(t);
        t.end();
        answer(t.error() == WireError.OK ? t.length() : NodeResult.refusal(WireError.FLOW_BACKPRESSURE));
    }

    private void answer(int n) {
        if (n < 0) {
            req.replyError(NodeResult.code(n));
        } else {
            req.replyResult(buffers.scratch, 0, n);
        }
    }
}
