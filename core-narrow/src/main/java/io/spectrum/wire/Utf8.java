package io.spectrum.wire;

/**
 * UTF-8 checks and conversions written against java.lang only (the NARROW core may not use
 * {@code java.nio.charset}). {@link #isValid} is allocation-free; the String conversions allocate
 * and belong to init-time or diagnostic code.
 */
public final class Utf8 {
    private Utf8() {
    }

    /** True when {@code b[off, off+len)} is well-formed UTF-8 (no overlongs, no surrogates, ≤ U+10FFFF). */
    public static boolean isValid(byte[] b, int off, int len) {
        int i = off;
        final int end = off + len;
        while (i < end) {
            int c = b[i] & 0xFF;
            if (c < 0x80) {
                i++;
                continue;
            }
            int need;
            int min;
            int cp;
            if (c >= 0xC2 && c <= 0xDF) {
                need = 1;
                min = 0x80;
                cp = c & 0x1F;
            } else if (c >= 0xE0 && c <= 0xEF) {
                need = 2;
                min = 0x800;
                cp = c & 0x0F;
            } else if (c >= 0xF0 && c <= 0xF4) {
                need = 3;
                min = 0x10000;
                cp = c & 0x07;
            } else {
                return false;
            }
            if (end - i <= need) {
                return false;
            }
            for (int k = 1; k <= need; k++) {
                int cc = b[i + k] & 0xFF;
                if ((cc & 0xC0) != 0x80) {
                    return false;
                }
                cp = (cp << 6) | (cc & 0x3F);
            }
            if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                return false;
            }
            i += need + 1;
        }
        return true;
    }

    /** Number of UTF-8 bytes {@code s} encodes to (unpaired surrogates count as U+FFFD). */
    public static int encodedLength(CharSequence s) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch < 0x80) {
                n += 1;
            } else if (ch < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(ch) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }

    /** Encodes {@code s} into {@code out} at {@code off}; returns the bytes written. */
    public static int encode(CharSequence s, byte[] out, int off) {
        return encode(s, out, off, Integer.MAX_VALUE);
    }

    /**
     * Encodes {@code s} into {@code out} at {@code off}, at most {@code max} bytes: cut before the
     * first character that would not fit (never inside one). An unpaired surrogate is written as
     * U+FFFD. Allocation-free.
     *
     * @return the bytes written
     */
    public static int encode(CharSequence s, byte[] out, int off, int max) {
        int p = off;
        final long end = (long) off + max;
        final int n = s.length();
        for (int i = 0; i < n; i++) {
            int cp = s.charAt(i);
            int step = 1;
            if (Character.isHighSurrogate((char) cp) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                cp = Character.toCodePoint((char) cp, s.charAt(i + 1));
                step = 2;
            } else if (cp >= 0xD800 && cp <= 0xDFFF) {
                cp = 0xFFFD;
            }
            int w = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
            if (p + w > end) {
                break;
            }
            if (w == 1) {
                out[p++] = (byte) cp;
            } else if (w == 2) {
                out[p++] = (byte) (0xC0 | cp >>> 6);
                out[p++] = (byte) (0x80 | (cp & 0x3F));
            } else if (w == 3) {
                out[p++] = (byte) (0xE0 | cp >>> 12);
                out[p++] = (byte) (0x80 | (cp >>> 6 & 0x3F));
                out[p++] = (byte) (0x80 | (cp & 0x3F));
            } else {
                out[p++] = (byte) (0xF0 | cp >>> 18);
                out[p++] = (byte) (0x80 | (cp >>> 12 & 0x3F));
                out[p++] = (byte) (0x80 | (cp >>> 6 & 0x3F));
                out[p++] = (byte) (0x80 | (cp & 0x3F));
            }
            i += step - 1;
        }
        return p - off;
    }

    /** A new array holding the UTF-8 bytes of {@code s} (init-time use: allocates). */
    public static byte[] bytes(CharSequence s) {
        byte[] out = new byte[encodedLength(s)];
        encode(s, out, 0);
        return out;
    }

    /**
     * Appends the decoded text of {@code b[off, off+len)} to {@code sb}; malformed sequences become
     * U+FFFD. Diagnostic use.
     */
    public static StringBuilder appendTo(StringBuilder sb, byte[] b, int off, int len) {
        int i = off;
        final int end = off + len;
        while (i < end) {
            int c = b[i] & 0xFF;
            int need = c < 0x80 ? 0 : c >= 0xC2 && c <= 0xDF ? 1 : c >= 0xE0 && c <= 0xEF ? 2 : c >= 0xF0 && c <= 0xF4 ? 3 : -1;
            if (need == 0) {
                sb.append((char) c);
                i++;
                continue;
            }
            if (need < 0 || end - i <= need || !isValid(b, i, need + 1)) {
                sb.append('\uFFFD');
                i++;
                continue;
            }
            int cp = c & (need == 1 ? 0x1F : need == 2 ? 0x0F : 0x07);
            for (int k = 1; k <= need; k++) {
                cp = (cp << 6) | (b[i + k] & 0x3F);
            }
            sb.appendCodePoint(cp);
            i += need + 1;
        }
        return sb;
    }

    /** The decoded text (diagnostic use: allocates). */
    public static String toString(byte[] b, int off, int len) {
        return appendTo(new StringBuilder(len), b, off, len).toString();
    }
}
