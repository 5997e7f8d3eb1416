package io.spectrum.node.api;

/**
 * A delivery seen by a {@link ValueListener}: the written value TLV and the PATH body of the vertex
 * that was written (a descendant of the subscribed vertex for subtree subscribers). A flyweight the
 * node re-points for each delivery; valid only during the callback.
 */
public final class VertexValue {
    private byte[] buf;
    private int off;
    private int len;
    private byte[] pathBuf;
    private int pathOff;
    private int pathLen;
    private boolean deleted;

    /** Re-points the view (node use). */
    public void set(byte[] b, int o, int l, byte[] pb, int po, int pl, boolean del) {
        buf = b;
        off = o;
        len = l;
        pathBuf = pb;
        pathOff = po;
        pathLen = pl;
        deleted = del;
    }

    /** Buffer holding the value TLV (header and payload, no trailer). */
    public byte[] buffer() {
        return buf;
    }

    public int offset() {
        return off;
    }

    public int length() {
        return len;
    }

    /** Buffer holding the written vertex's PATH body. */
    public byte[] pathBuffer() {
        return pathBuf;
    }

    public int pathOffset() {
        return pathOff;
    }

    public int pathLength() {
        return pathLen;
    }

    /** True for the delete notice of a notifying clear (the value is then the empty STATUS). */
    public boolean deleted() {
        return deleted;
    }

    /** Copies the value TLV out (allocates; tests and diagnostics). */
    public byte[] copy() {
        byte[] r = new byte[len];
        System.arraycopy(buf, off, r, 0, len);
        return r;
    }

    /** The written vertex as text (allocates; tests and diagnostics). */
    public String path() {
        return NodePath.render(pathBuf, pathOff, pathLen);
    }
}
