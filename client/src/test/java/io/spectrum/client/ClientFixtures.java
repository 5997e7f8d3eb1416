package io.spectrum.client;

import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Small TLVs for the client tests. */
final class ClientFixtures {
    private ClientFixtures() {
    }

    static byte[] name(String s) {
        byte[] b = new byte[s.length() * 4 + 8];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.leaf(TlvType.NAME, s.getBytes(StandardCharsets.UTF_8));
        return Arrays.copyOf(b, w.length());
    }
}
