package io.spectrum.node.api;

import io.spectrum.wire.Bytes;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;

/**
 * A validated, pre-encoded PATH made once (configuration time) and then used on the hot path with
 * no parsing, formatting or allocation. Holds the whole PATH TLV ({@code 06 00 LL LL body}); the
 * body is the canonical vertex key.
 *
 * <p>Key rules (digest §3.1): segments of 1..64 UTF-8 bytes, none of {@code / : . [ ] * ?}, no
 * escape records, at most 255 segments, body at most 1024 bytes.
 */
public final class NodePath {
    public static final int MAX_SEGMENT = 64;
    public static final int MAX_SEGMENTS = 255;
    public static final int MAX_BODY = 1024;

    private final byte[] tlv;
    private final String text;

    private NodePath(byte[] tlv, String text) {
        this.tlv = tlv;
        this.text = text;
    }

    /** Parses {@code /seg/seg}; {@code /} is the root. Throws IllegalArgumentException on a bad path. */
    public static NodePath of(String path) {
        if (path == null || path.isEmpty() || path.charAt(0) != '/') {
            throw new IllegalArgumentException("path must start with '/': " + path);
        }
        byte[] body = new byte[MAX_BODY + 1];
        int n = 0;
        int segs = 0;
        int i = 1;
        while (i < path.length()) {
            int j = path.indexOf('/', i);
            if (j < 0) {
                j = path.length();
            }
            String seg = path.substring(i, j);
            byte[] s = utf8(seg);
            if (s.length < 1 || s.length > MAX_SEGMENT) {
                throw new IllegalArgumentException("segment of " + s.length + " bytes in " + path);
            }
            for (byte b : s) {
                if (isReserved(b)) {
                    throw new IllegalArgumentException("reserved character in " + path);
                }
            }
            if (++segs > MAX_SEGMENTS || n + 1 + s.length > MAX_BODY) {
                throw new IllegalArgumentException("path too long: " + path);
            }
            body[n++] = (byte) s.length;
            System.arraycopy(s, 0, body, n, s.length);
            n += s.length;
            i = j + 1;
            if (j == path.length() - 1) {
                throw new IllegalArgumentException("trailing '/' in " + path);
            }
        }
        byte[] tlv = new byte[4 + n];
        tlv[0] = (byte) TlvType.PATH;
        Bytes.put16(tlv, 2, n);
        System.arraycopy(body, 0, tlv, 4, n);
        return new NodePath(tlv, path);
    }

    /** Wraps an already-encoded PATH body after checking the key rules; null if it is not a valid key. */
    public static NodePath ofBody(byte[] buf, int off, int len) {
        if (validateKey(buf, off, len) != WireError.OK) {
            return null;
        }
        byte[] tlv = new byte[4 + len];
        tlv[0] = (byte) TlvType.PATH;
        Bytes.put16(tlv, 2, len);
        System.arraycopy(buf, off, tlv, 4, len);
        return new NodePath(tlv, render(buf, off, len));
    }

    static boolean isReserved(byte b) {
        return b == '/' || b == ':' || b == '.' || b == '[' || b == ']' || b == '*' || b == '?' || b == 0;
    }

    /**
     * Checks a PATH body in key context: records tile the body, 1..64 bytes, no escapes, no
     * reserved characters, limits. Allocation-free.
     *
     * @return OK or PATH_INVALID
     */
    public static int validateKey(byte[] b, int off, int len) {
        if (len > MAX_BODY) {
            return WireError.PATH_INVALID;
        }
        int p = off;
        final int end = off + len;
        int segs = 0;
        while (p < end) {
            int sl = b[p] & 0xFF;
            if (sl == 0 || sl > MAX_SEGMENT || p + 1 + sl > end || ++segs > MAX_SEGMENTS) {
                return WireError.PATH_INVALID;
            }
            for (int k = p + 1; k <= p + sl; k++) {
                if (isReserved(b[k])) {
                    return WireError.PATH_INVALID;
                }
            }
            p += 1 + sl;
        }
        return WireError.OK;
    }

    /** Whole PATH TLV bytes; do not modify. */
    public byte[] tlv() {
        return tlv;
    }

    public int bodyOffset() {
        return 4;
    }

    public int bodyLength() {
        return tlv.length - 4;
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NodePath && Bytes.equals(tlv, 0, tlv.length, ((NodePath) o).tlv, 0, ((NodePath) o).tlv.length);
    }

    @Override
    public int hashCode() {
        int h = 1;
        for (byte x : tlv) {
            h = 31 * h + x;
        }
        return h;
    }

    /** Renders a PATH body as {@code /a/b} (configuration-time and diagnostics only). */
    public static String render(byte[] b, int off, int len) {
        if (len == 0) {
            return "/";
        }
        StringBuilder sb = new StringBuilder();
        int p = off;
        final int end = off + len;
        while (p < end) {
            int sl = b[p] & 0xFF;
            if (sl == 0 || p + 1 + sl > end) {
                sb.append("/?");
                break;
            }
            sb.append('/');
            appendUtf8(sb, b, p + 1, sl);
            p += 1 + sl;
        }
        return sb.toString();
    }

    static byte[] utf8(String s) {
        byte[] out = new byte[s.length() * 4];
        int n = 0;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            if (cp < 0x80) {
                out[n++] = (byte) cp;
            } else if (cp < 0x800) {
                out[n++] = (byte) (0xC0 | (cp >> 6));
                out[n++] = (byte) (0x80 | (cp & 0x3F));
            } else if (cp < 0x10000) {
                out[n++] = (byte) (0xE0 | (cp >> 12));
                out[n++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                out[n++] = (byte) (0x80 | (cp & 0x3F));
            } else {
                out[n++] = (byte) (0xF0 | (cp >> 18));
                out[n++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                out[n++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                out[n++] = (byte) (0x80 | (cp & 0x3F));
            }
        }
        byte[] r = new byte[n];
        System.arraycopy(out, 0, r, 0, n);
        return r;
    }

    static void appendUtf8(StringBuilder sb, byte[] b, int off, int len) {
        int i = off;
        final int end = off + len;
        while (i < end) {
            int c = b[i] & 0xFF;
            int cp;
            int extra;
            if (c < 0x80) {
                cp = c;
                extra = 0;
            } else if (c >= 0xF0) {
                cp = c & 0x07;
                extra = 3;
            } else if (c >= 0xE0) {
                cp = c & 0x0F;
                extra = 2;
            } else {
                cp = c & 0x1F;
                extra = 1;
            }
            i++;
            for (int k = 0; k < extra && i < end; k++, i++) {
                cp = (cp << 6) | (b[i] & 0x3F);
            }
            sb.appendCodePoint(cp);
        }
    }
}
