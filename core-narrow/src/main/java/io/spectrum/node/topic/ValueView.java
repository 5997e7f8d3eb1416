package io.spectrum.node.topic;

import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.NodeResult;
import io.spectrum.node.api.VertexValue;
import io.spectrum.wire.WireError;

/**
 * The node's writable side of the listener-facing {@link VertexValue} (and
 * {@link io.spectrum.node.api.VertexPath}) views: only the node re-points it, over its value pool
 * and key store; a listener sees the read-only interface, which hands out no buffer. One instance
 * per call site, re-pointed per delivery, so a delivery allocates nothing.
 */
final class ValueView implements VertexValue {
    private byte[] buf;
    private int off;
    private int len;
    private byte[] pathBuf;
    private int pathOff;
    private int pathLen;
    private boolean deleted;

    /** Re-points the view at a value TLV and the written vertex's PATH body. */
    ValueView wrap(byte[] b, int o, int l, byte[] pb, int po, int pl, boolean del) {
        buf = b;
        off = o;
        len = l;
        pathBuf = pb;
        pathOff = po;
        pathLen = pl;
        deleted = del;
        return this;
    }

    /** Re-points the view at a vertex's PATH body only (no value). */
    ValueView wrapPath(byte[] pb, int po, int pl) {
        return wrap(null, 0, 0, pb, po, pl, false);
    }

    @Override
    public int length() {
        return len;
    }

    @Override
    public byte getByte(int i) {
        if (i < 0 || i >= len) {
            throw new IndexOutOfBoundsException(i);
        }
        return buf[off + i];
    }

    @Override
    public int copyTo(byte[] dst, int o) {
        if (dst.length - o < len) {
            return NodeResult.refusal(WireError.FLOW_BACKPRESSURE);
        }
        System.arraycopy(buf, off, dst, o, len);
        return len;
    }

    @Override
    public boolean deleted() {
        return deleted;
    }

    @Override
    public int pathLength() {
        return pathLen;
    }

    @Override
    public byte pathByte(int i) {
        if (i < 0 || i >= pathLen) {
            throw new IndexOutOfBoundsException(i);
        }
        return pathBuf[pathOff + i];
    }

    @Override
    public int copyPathTo(byte[] dst, int o) {
        if (dst.length - o < pathLen) {
            return NodeResult.refusal(WireError.FLOW_BACKPRESSURE);
        }
        System.arraycopy(pathBuf, pathOff, dst, o, pathLen);
        return pathLen;
    }

    @Override
    public NodePath nodePath() {
        return NodePath.ofBody(pathBuf, pathOff, pathLen);
    }

    @Override
    public String path() {
        return NodePath.render(pathBuf, pathOff, pathLen);
    }
}
