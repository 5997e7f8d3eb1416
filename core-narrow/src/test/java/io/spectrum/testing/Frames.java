package io.spectrum.testing;

import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;

/**
 * Test frames for the link modules: a VALUE TLV carrying a u64 counter padded to a chosen payload
 * size (shared via the core-narrow test-jar).
 */
public final class Frames {
    private Frames() {
    }

    public static byte[] value(long counter, int payload) {
        byte[] body = new byte[Math.max(8, payload)];
        for (int i = 0; i < 8; i++) {
            body[i] = (byte) (counter >>> (8 * i));
        }
        for (int i = 8; i < body.length; i++) {
            body[i] = (byte) (counter * 31 + i);
        }
        byte[] out = new byte[body.length + 16];
        TlvWriter w = new TlvWriter().wrap(out, 0, out.length);
        w.leaf(TlvType.VALUE, body, 0, body.length);
        if (w.error() != 0) {
            throw new IllegalStateException("writer error " + w.error());
        }
        return java.util.Arrays.copyOf(out, w.length());
    }

    /** The counter of a frame made by {@link #value}. */
    public static long counter(byte[] buf, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v |= (buf[off + 4 + i] & 0xFFL) << (8 * i);
        }
        return v;
    }
}
