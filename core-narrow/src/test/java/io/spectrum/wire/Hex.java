package io.spectrum.wire;

/** Test helper: hex text (spaces allowed) to bytes and back. */
final class Hex {
    private Hex() {
    }

    static byte[] bytes(String hex) {
        String h = hex.replaceAll("\\s+", "");
        byte[] out = new byte[h.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(h.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }

    static String of(byte[] b, int off, int len) {
        StringBuilder sb = new StringBuilder();
        for (int i = off; i < off + len; i++) {
            sb.append(String.format("%02X", b[i] & 0xFF));
        }
        return sb.toString();
    }

    /** Hex of a TLV with a u16 length computed from the concatenated body parts. */
    static String tlv(int type, int opt, String... parts) {
        String body = String.join("", parts).replaceAll("\\s+", "");
        int n = body.length() / 2;
        return String.format("%02X%02X%02X%02X", type, opt, n & 0xFF, n >> 8) + body;
    }

    static TlvIndex decode(String hex) {
        byte[] b = bytes(hex);
        TlvIndex idx = new TlvIndex();
        int r = new FrameDecoder().decode(b, 0, b.length, idx);
        if (r != WireError.OK) {
            throw new AssertionError("decode refused: " + WireError.harnessName(r));
        }
        return idx;
    }
}
