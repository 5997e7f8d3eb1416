package io.spectrum.wide;

import io.spectrum.testing.ValueTlvs;

/** Value TLVs for the tests: the short names this package's tests call, of {@link ValueTlvs}. */
final class Tlv {
    private Tlv() {
    }

    static byte[] value(long v, int width) {
        return ValueTlvs.value(v, width);
    }

    static byte[] text(String text) {
        return ValueTlvs.text(text);
    }

    static byte[] blob(int total) {
        return ValueTlvs.blob(total);
    }

    static String hex(byte[] b) {
        return ValueTlvs.hex(b);
    }
}
