package io.spectrum.wide;

import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.NodeResult;
import io.spectrum.node.api.VertexValue;
import io.spectrum.wire.WireError;

/**
 * The WIDE node's writable side of the listener-facing {@link VertexValue} view: re-pointed by the
 * node for each delivery over a vertex's value and key; a listener sees the read-only interface.
 */
final class ValueView implements VertexValue {
    private byte[] buf;
    private int len;
    private byte[] key;
    private boolean deleted;

    ValueView wrap(byte[] b, int l, byte[] k, boolean del) {
        buf = b;
        len = l;
        key = k;
        deleted = del;
        return this;
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
        return buf[i];
    }

    @Override
    public int copyTo(byte[] dst, int o) {
        if (dst.length - o < len) {
            return NodeResult.refusal(WireError.FLOW_BACKPRESSURE);
        }
        System.arraycopy(buf, 0, dst, o, len);
        return len;
    }

    @Override
    public boolean deleted() {
        return deleted;
    }

    @Override
    public int pathLength() {
        return key.length;
    }

    @Override
    public byte pathByte(int i) {
        return key[i];
    }

    @Override
    public int copyPathTo(byte[] dst, int o) {
        if (dst.length - o < key.length) {
            return NodeResult.refusal(WireError.FLOW_BACKPRESSURE);
        }
        System.arraycopy(key, 0, dst, o, key.length);
        return key.length;
    }

    @Override
    public NodePath nodePath() {
        return NodePath.ofBody(key, 0, key.length);
    }

    @Override
    public String path() {
        return NodePath.render(key, 0, key.length);
    }
}
