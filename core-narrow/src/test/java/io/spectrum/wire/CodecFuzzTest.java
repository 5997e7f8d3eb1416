package io.spectrum.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Mutation fuzz over the vectors: every input either decodes and re-encodes byte for byte, or is
 * refused with a registered code, and nothing throws — in the codec or in any typed view pointed
 * at what decoded. Seeded, so a failure reproduces.
 */
class CodecFuzzTest {
    private static final int INPUTS = 1_000_000;

    private final FrameDecoder decoder = new FrameDecoder();
    private final FrameEncoder encoder = new FrameEncoder();
    private final TlvIndex index = new TlvIndex(512, 32);
    private final byte[] out = new byte[1 << 16];
    private final ViewExerciser views = new ViewExerciser();

    @Test
    void mutatedVectorsDecodeAndRoundTripOrAreRefusedWithARegisteredCode() {
        List<byte[]> seeds = VectorFrames.acceptFrames();
        Random rnd = new Random(0x5EC7_2026L);
        TreeMap<String, Integer> outcomes = new TreeMap<>();
        byte[] buf = new byte[4096];
        for (int i = 0; i < INPUTS; i++) {
            byte[] seed = seeds.get(rnd.nextInt(seeds.size()));
            int len = mutate(seed, buf, rnd);
            String outcome = check(buf, len, i);
            outcomes.merge(outcome, 1, Integer::sum);
        }
        System.out.println("fuzz outcomes over " + INPUTS + " inputs: " + outcomes);
        assertTrue(outcomes.getOrDefault("OK", 0) > 10_000, "enough mutations stay valid to test the round-trip");
        assertTrue(outcomes.size() >= 4, "several refusal kinds seen: " + outcomes);
    }

    private String check(byte[] buf, int len, int i) {
        int code;
        try {
            code = decoder.decode(buf, 0, len, index);
        } catch (RuntimeException e) {
            throw new AssertionError("decode threw on input " + i + ": " + Hex.of(buf, 0, len), e);
        }
        if (code != WireError.OK) {
            if (!WireError.isRegistered(code)) {
                fail("unregistered refusal " + code + " on input " + i);
            }
            assertEquals(0, index.count(), "refusal left entries");
            return WireError.harnessName(code);
        }
        int n = encoder.encode(index, 0, out, 0, out.length);
        if (n != len || !Bytes.equals(out, 0, n, buf, 0, len)) {
            fail("round-trip differs on input " + i + ": " + Hex.of(buf, 0, len) + " -> " + (n < 0 ? "refused " + n : Hex.of(out, 0, n)));
        }
        try {
            views.exercise(index);
        } catch (RuntimeException e) {
            throw new AssertionError("a view threw on input " + i + ": " + Hex.of(buf, 0, len), e);
        }
        return "OK";
    }

    /** One random mutation of {@code seed} into {@code buf}; returns the length. */
    private static int mutate(byte[] seed, byte[] buf, Random rnd) {
        int len = Math.min(seed.length, buf.length - 16);
        System.arraycopy(seed, 0, buf, 0, len);
        switch (rnd.nextInt(8)) {
            case 0: { // bit flips
                int flips = 1 + rnd.nextInt(3);
                for (int k = 0; k < flips; k++) {
                    int p = rnd.nextInt(len);
                    buf[p] ^= (byte) (1 << rnd.nextInt(8));
                }
                return len;
            }
            case 1: // truncation
                return rnd.nextInt(len + 1);
            case 2: { // a length field lies: pick a header-looking offset and rewrite 2 bytes
                int p = rnd.nextInt(Math.max(1, len - 3));
                int v = rnd.nextBoolean() ? rnd.nextInt(0x10000) : (buf[p + 2] & 0xFF) + rnd.nextInt(5) - 2;
                buf[p + 2] = (byte) v;
                buf[p + 3] = (byte) (v >>> 8);
                return len;
            }
            case 3: { // inserted bytes
                int p = rnd.nextInt(len + 1);
                int k = 1 + rnd.nextInt(4);
                System.arraycopy(seed, p, buf, p + k, len - p);
                for (int j = 0; j < k; j++) {
                    buf[p + j] = (byte) rnd.nextInt(256);
                }
                return len + k;
            }
            case 4: { // deleted bytes
                int p = rnd.nextInt(len);
                int k = 1 + rnd.nextInt(Math.min(4, len - p));
                System.arraycopy(seed, p + k, buf, p, len - p - k);
                return len - k;
            }
            case 5: { // opt byte rewritten (reserved bits, LL, TS, CR combinations)
                buf[1] = (byte) rnd.nextInt(256);
                return len;
            }
            case 6: { // a random byte overwritten
                buf[rnd.nextInt(len)] = (byte) rnd.nextInt(256);
                return len;
            }
            default: { // trailing garbage
                buf[len] = (byte) rnd.nextInt(256);
                return len + 1;
            }
        }
    }

    @Test
    void thousandDeepNestingIsRefusedNotOverflowed() {
        int depth = 1000;
        byte[] b = new byte[depth * 4 + 4];
        for (int d = 0; d < depth; d++) {
            int remaining = (depth - d - 1) * 4 + 4;
            b[d * 4] = (byte) TlvType.POINT;
            b[d * 4 + 1] = (byte) Opt.PL;
            Bytes.put16(b, d * 4 + 2, remaining);
        }
        b[depth * 4] = 9; // innermost: empty STATUS
        assertEquals(WireError.TLV_NESTING_TOO_DEEP, decoder.decode(b, 0, b.length, index));
        assertEquals(0, index.count());
        // within the index's depth budget the same shape decodes and round-trips
        byte[] shallow = Arrays.copyOfRange(b, (depth - 20) * 4, b.length);
        assertEquals(WireError.OK, decoder.decode(shallow, 0, shallow.length, index));
        assertEquals(shallow.length, encoder.encode(index, 0, out, 0, out.length));
        assertTrue(Bytes.equals(out, 0, shallow.length, shallow, 0, shallow.length));
    }

    @Test
    void capacityExhaustionIsTypedToo() {
        // 600 sibling VALUEs under one POINT: more entries than the 512-entry index holds
        int n = 600;
        byte[] b = new byte[4 + n * 5];
        b[0] = (byte) TlvType.POINT;
        b[1] = (byte) Opt.PL;
        Bytes.put16(b, 2, n * 5);
        for (int i = 0; i < n; i++) {
            b[4 + i * 5] = 1;
            b[4 + i * 5 + 2] = 1;
        }
        assertEquals(WireError.TLV_NESTING_TOO_DEEP, decoder.decode(b, 0, b.length, index));
    }

    @Test
    void rejectVectorsAreRefusedWithFrameInvalid() {
        List<byte[]> rejects = VectorFrames.rejectFrames();
        assertEquals(4, rejects.size());
        for (byte[] r : rejects) {
            assertEquals(WireError.FRAME_INVALID, decoder.decode(r, 0, r.length, index), Hex.of(r, 0, Math.min(16, r.length)));
        }
    }
}
