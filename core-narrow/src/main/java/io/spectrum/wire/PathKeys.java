package io.spectrum.wire;

/**
 * Rules for a PATH body (packed segment records {@code len, bytes}, escape records
 * {@code 00 kind n bytes}) in its two contexts:
 *
 * <ul>
 *   <li><b>key context</b> (vertex key, route, path handle, subscriber target): records tile the
 *       body, each segment 1..64 bytes of valid UTF-8 with no NUL and none of
 *       {@code / : . [ ] * ?}, at most 255 segments, body at most 1024 bytes (length prefixes
 *       included), and no escape record at all;</li>
 *   <li><b>frame context</b> (relayed dst/src): records tile the body, escapes of unknown kinds are
 *       stepped over, a label escape (kind 0x16) must carry exactly 4 bytes.</li>
 * </ul>
 *
 * Both return {@link WireError#OK} or {@link WireError#PATH_INVALID}. The canonical body is the
 * vertex key and one address has one spelling, so the parent relation is a byte-prefix test.
 * Allocation-free.
 */
public final class PathKeys {
    /** Most segments a key-context body may hold. */
    public static final int MAX_SEGMENTS = 255;
    /** Longest segment of a key-context body, in bytes. */
    public static final int MAX_SEGMENT_BYTES = 64;
    /** Largest PATH length field (body bytes, record prefixes included). */
    public static final int MAX_BODY_BYTES = 1024;
    /** The escape kind of a path label (RFC-0027). */
    public static final int ESCAPE_KIND_LABEL = 0x16;
    /**
     * Bytes a label escape (kind {@link #ESCAPE_KIND_LABEL}) carries: a u32, index in bits 0-15 and
     * generation in bits 16-31.
     */
    public static final int LABEL_BYTES = 4;

    private PathKeys() {
    }

    /** True for the characters a segment may not contain: {@code / : . [ ] * ?} and NUL. */
    public static boolean isReserved(int b) {
        switch (b & 0xFF) {
            case 0:
            case '/':
            case ':':
            case '.':
            case '[':
            case ']':
            case '*':
            case '?':
                return true;
            default:
                return false;
        }
    }

    /** Checks one segment's bytes (key context). */
    public static int validateSegment(byte[] b, int off, int len) {
        if (len < 1 || len > MAX_SEGMENT_BYTES) {
            return WireError.PATH_INVALID;
        }
        for (int i = off, end = off + len; i < end; i++) {
            if (isReserved(b[i])) {
                return WireError.PATH_INVALID;
            }
        }
        return Utf8.isValid(b, off, len) ? WireError.OK : WireError.PATH_INVALID;
    }

    /** Checks a PATH body in key context. */
    public static int validateKey(byte[] b, int off, int len) {
        if (len < 0 || len > MAX_BODY_BYTES) {
            return WireError.PATH_INVALID;
        }
        final int end = off + len;
        int p = off;
        int segments = 0;
        while (p < end) {
            final int n = b[p] & 0xFF;
            if (n == 0) {
                return WireError.PATH_INVALID; // any escape record in a key
            }
            if (end - p - 1 < n) {
                return WireError.PATH_INVALID;
            }
            if (++segments > MAX_SEGMENTS) {
                return WireError.PATH_INVALID;
            }
            if (validateSegment(b, p + 1, n) != WireError.OK) {
                return WireError.PATH_INVALID;
            }
            p += 1 + n;
        }
        return WireError.OK;
    }

    /** Checks a PATH body in frame context (relayed routes): tiling and label width only. */
    public static int validateFrame(byte[] b, int off, int len) {
        if (len < 0) {
            return WireError.PATH_INVALID;
        }
        final int end = off + len;
        int p = off;
        while (p < end) {
            final int n = b[p] & 0xFF;
            if (n != 0) {
                if (end - p - 1 < n) {
                    return WireError.PATH_INVALID;
                }
                p += 1 + n;
                continue;
            }
            if (end - p < 3) {
                return WireError.PATH_INVALID;
            }
            final int kind = b[p + 1] & 0xFF;
            final int m = b[p + 2] & 0xFF;
            if (end - p - 3 < m) {
                return WireError.PATH_INVALID;
            }
            if (kind == ESCAPE_KIND_LABEL && m != LABEL_BYTES) {
                return WireError.PATH_INVALID;
            }
            p += 3 + m;
        }
        return WireError.OK;
    }

    /** Number of records (segments and escapes) in a body that tiles, or -PATH_INVALID. */
    public static int recordCount(byte[] b, int off, int len) {
        final int end = off + len;
        int p = off;
        int count = 0;
        while (p < end) {
            final int n = b[p] & 0xFF;
            int step;
            if (n != 0) {
                step = 1 + n;
            } else {
                if (end - p < 3) {
                    return -WireError.PATH_INVALID;
                }
                step = 3 + (b[p + 2] & 0xFF);
            }
            if (end - p < step) {
                return -WireError.PATH_INVALID;
            }
            p += step;
            count++;
        }
        return count;
    }

    /**
     * True when a segment of key body {@code b[off, off+len)} starts with {@code $}: the path names
     * a node-internal ({@code $}) vertex or one under it, which only the node's owner may write.
     */
    public static boolean hasReservedSegment(byte[] b, int off, int len) {
        int p = off;
        final int end = off + len;
        while (p < end) {
            int sl = b[p] & 0xFF;
            if (sl > 0 && p + 1 < end && b[p + 1] == '$') {
                return true;
            }
            p += 1 + sl;
        }
        return false;
    }

    /**
     * True when body {@code a} is body {@code b} or one of its ancestors: for canonical keys that
     * is exactly "a is a byte prefix of b" (records are self-delimiting from the start).
     */
    public static boolean isAncestorOrSelf(byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen) {
        if (aLen > bLen) {
            return false;
        }
        for (int i = 0; i < aLen; i++) {
            if (a[aOff + i] != b[bOff + i]) {
                return false;
            }
        }
        return true;
    }

    /** True when body {@code a} is a proper ancestor of body {@code b}. */
    public static boolean isStrictAncestor(byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen) {
        return aLen < bLen && isAncestorOrSelf(a, aOff, aLen, b, bOff, bLen);
    }

    /**
     * Length of the parent's body of key body {@code b[off, off+len)}: the offset of its last
     * record. Root (empty) has no parent: -1.
     */
    public static int parentLength(byte[] b, int off, int len) {
        if (len == 0) {
            return -1;
        }
        final int end = off + len;
        int p = off;
        int last = off;
        while (p < end) {
            last = p;
            final int n = b[p] & 0xFF;
            p += n != 0 ? 1 + n : 3 + (end - p >= 3 ? b[p + 2] & 0xFF : 0);
        }
        return last - off;
    }
}
