package io.spectrum.testing;

import io.spectrum.wire.Opt;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Value TLVs the node tests publish, shared via the core-narrow test-jar. */
public final class ValueTlvs {
    private ValueTlvs() {
    }

    /** VALUE of {@code width} little-endian bytes. */
    public static byte[] value(long v, int width) {
        byte[] b = new byte[16];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length).value(v, width);
        return Arrays.copyOf(b, w.length());
    }

    /** A DESCRIPTION TLV carrying {@code text} (an ABP inner message stands in as one value TLV). */
    public static byte[] text(String text) {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        byte[] b = new byte[body.length + 8];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length).leaf(TlvType.DESCRIPTION, body);
        return Arrays.copyOf(b, w.length());
    }

    /** A DESCRIPTION TLV (u32 length) of exactly {@code total} bytes, header included. */
    public static byte[] blob(int total) {
        byte[] body = new byte[total - Opt.headerSize(Opt.LL)];
        Arrays.fill(body, (byte) 'x');
        byte[] b = new byte[total];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length).leaf(TlvType.DESCRIPTION, Opt.LL, body, 0, body.length, 0L);
        if (w.length() != total) {
            throw new IllegalStateException("blob " + w.length() + " != " + total + " error " + w.error());
        }
        return b;
    }

    /** Lower-case hex of {@code b}, two digits a byte. */
    public static String hex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte x : b) {
            s.append(String.format("%02x", x & 0xFF));
        }
        return s.toString();
    }
}
