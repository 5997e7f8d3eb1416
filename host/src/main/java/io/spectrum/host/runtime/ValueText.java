package io.spectrum.host.runtime;

import io.spectrum.wire.Bytes;
import io.spectrum.wire.Opt;
import io.spectrum.wire.TlvType;

import java.nio.charset.StandardCharsets;

/**
 * A value TLV as an operator reads it: VALUE of 1, 2, 4 or 8 bytes as a little-endian signed
 * integer (a number the dashboard can chart), NAME as text, the empty STATUS as "(cleared)",
 * anything else as its type name and hex.
 */
public record ValueText(String text, boolean numeric, double number) {
    public static final ValueText NONE = new ValueText("", false, 0);

    public static ValueText of(byte[] b, int off, int len) {
        if (len < 4) {
            return new ValueText(hex(b, off, len), false, 0);
        }
        int type = b[off] & 0xFF;
        int opt = b[off + 1] & 0xFF;
        int header = Opt.headerSize(opt);
        long bodyLen = (opt & Opt.LL) != 0 ? Bytes.i32(b, off + 2) & 0xFFFFFFFFL : Bytes.u16(b, off + 2);
        if (header + bodyLen > len) {
            return new ValueText(hex(b, off, len), false, 0);
        }
        int body = off + header;
        int n = (int) bodyLen;
        if (type == TlvType.VALUE && (opt & Opt.PL) == 0 && (n == 1 || n == 2 || n == 4 || n == 8)) {
            long v = switch (n) {
                case 1 -> b[body];
                case 2 -> (short) Bytes.u16(b, body);
                case 4 -> Bytes.i32(b, body);
                default -> Bytes.i64(b, body);
            };
            return new ValueText(Long.toString(v), true, v);
        }
        if (type == TlvType.NAME && (opt & Opt.PL) == 0) {
            return new ValueText(new String(b, body, n, StandardCharsets.UTF_8), false, 0);
        }
        if (type == TlvType.STATUS && n == 0) {
            return new ValueText("(cleared)", false, 0);
        }
        return new ValueText(TlvType.name(type) + " " + hex(b, body, Math.min(n, 16)) + (n > 16 ? "…" : ""), false, 0);
    }

    static String hex(byte[] b, int off, int len) {
        StringBuilder s = new StringBuilder(len * 2);
        for (int i = 0; i < len; i++) {
            s.append(String.format("%02x", b[off + i] & 0xFF));
        }
        return s.toString();
    }
}
