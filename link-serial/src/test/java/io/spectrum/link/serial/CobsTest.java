package io.spectrum.link.serial;

import io.spectrum.testing.Frames;
import io.spectrum.wire.Crc32c;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CobsTest {
    private static byte[] frame(byte[] f) {
        byte[] out = new byte[CobsFramer.maxEncodedLength(f.length)];
        int n = CobsFramer.encode(f, 0, f.length, out, 0, out.length);
        assertTrue(n > 0);
        return Arrays.copyOf(out, n);
    }

    /** Feeds a stream in chunks of {@code chunk} bytes and collects the frames. */
    private static List<byte[]> deframe(CobsDeframer d, byte[] stream, int chunk) {
        List<byte[]> out = new ArrayList<>();
        int off = 0;
        while (off < stream.length) {
            int len = Math.min(chunk, stream.length - off);
            int used = d.consume(stream, off, len);
            off += used;
            if (d.hasFrame()) {
                out.add(Arrays.copyOf(d.frame(), d.frameLength()));
            }
        }
        return out;
    }

    @Test
    void workedExampleFromDocsLinks() {
        // Expected bytes computed independently (a Python CRC-32C + COBS); see docs/links.md.
        byte[] check = "123456789".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        assertEquals(0xE3069283, Crc32c.compute(check, 0, check.length), "CRC-32C check value");
        byte[] status = HexFormat.of().parseHex("09000000");
        assertEquals("02090101059982666300", HexFormat.of().formatHex(frame(status)));
        byte[] value = HexFormat.of().parseHex("010001002a");
        assertEquals("02010201062a012d7d9300", HexFormat.of().formatHex(frame(value)));
        CobsDeframer d = new CobsDeframer(64);
        List<byte[]> got = deframe(d, HexFormat.of().parseHex("02010201062a012d7d9300"), 64);
        assertArrayEquals(value, got.get(0));
    }

    @Test
    void noZeroInsideAFrameAndEveryLengthRoundTripsWhateverTheChunking() {
        Random r = new Random(7);
        int[] lengths = {1, 2, 3, 4, 250, 251, 252, 253, 254, 255, 256, 507, 508, 509, 1000, 4000};
        for (int len : lengths) {
            for (int variant = 0; variant < 4; variant++) {
                byte[] f = new byte[len];
                for (int i = 0; i < len; i++) {
                    f[i] = switch (variant) {
                        case 0 -> 0;
                        case 1 -> (byte) (1 + r.nextInt(255));
                        case 2 -> (byte) r.nextInt(256);
                        default -> (byte) (i % 255 == 0 ? 0 : 0x11);
                    };
                }
                byte[] wire = frame(f);
                assertTrue(wire.length <= CobsFramer.maxEncodedLength(len));
                for (int i = 0; i < wire.length - 1; i++) {
                    assertTrue(wire[i] != 0, "zero inside a stuffed frame at " + i + " len " + len);
                }
                assertEquals(0, wire[wire.length - 1]);
                for (int chunk : new int[] {1, 7, 4096}) {
                    CobsDeframer d = new CobsDeframer(4096);
                    List<byte[]> got = deframe(d, wire, chunk);
                    assertEquals(1, got.size(), "len " + len + " variant " + variant + " chunk " + chunk);
                    assertArrayEquals(f, got.get(0));
                }
            }
        }
    }

    @Test
    void resynchronisesAtTheNextDelimiterAfterNoise() {
        byte[] a = Frames.value(1, 16);
        byte[] b = Frames.value(2, 16);
        ByteArrayOutputStream s = new ByteArrayOutputStream();
        s.writeBytes(new byte[] {0x55, 0x13, 0x7F, (byte) 0xFF, 0x01});  // noise, no delimiter: spoils the next frame
        s.writeBytes(frame(a));                                           // lost with the noise
        s.writeBytes(frame(b));                                           // delivered
        s.writeBytes(new byte[] {0x42, 0x00});                            // noise with a delimiter: dropped alone
        s.writeBytes(frame(a));                                           // delivered
        CobsDeframer d = new CobsDeframer(1024);
        List<byte[]> got = deframe(d, s.toByteArray(), 3);
        assertEquals(2, got.size());
        assertArrayEquals(b, got.get(0));
        assertArrayEquals(a, got.get(1));
        assertEquals(2, d.badCobs() + d.crcMismatch());
    }

    @Test
    void countsBadCobsCrcMismatchOversizeAndEmpty() {
        CobsDeframer d = new CobsDeframer(64);
        byte[] good = Frames.value(9, 16);
        byte[] wire = frame(good);

        deframe(d, new byte[] {0x00, 0x00}, 1);                          // two empty frames
        assertEquals(2, d.empty());

        deframe(d, new byte[] {0x05, 0x11, 0x22, 0x00}, 1);              // block says 4 data bytes, has 2
        assertEquals(1, d.badCobs());
        deframe(d, new byte[] {0x03, 0x11, 0x22, 0x00}, 1);              // too short to hold a CRC
        assertEquals(2, d.badCobs());

        byte[] flipped = wire.clone();
        flipped[1] ^= 0x02;                                               // a data byte (the type), stays non-zero
        assertEquals(0, deframe(d, flipped, 5).size());
        assertEquals(1, d.crcMismatch());

        byte[] big = frame(Frames.value(9, 100));                          // 104-byte frame > 64
        assertEquals(0, deframe(d, big, 16).size());
        assertEquals(1, d.oversize());
        byte[] exactlyMax = Frames.value(9, 60);                           // 64 bytes: fits
        assertEquals(1, deframe(d, frame(exactlyMax), 16).size());

        List<byte[]> after = deframe(d, wire, 2);
        assertEquals(1, after.size());
        assertArrayEquals(good, after.get(0));
        assertEquals(2, d.framesOk());
        assertFalse(d.hasFrame() && d.frameLength() == 0);
    }

    @Test
    void anEmptyFrameIsNeverDelivered() {
        CobsDeframer d = new CobsDeframer(64);
        assertEquals(0, deframe(d, frame(new byte[0]), 64).size());
        assertEquals(1, d.badCobs());
    }

    @Test
    void aTooSmallOutputBufferIsRefusedNotOverrun() {
        byte[] f = new byte[100];
        byte[] out = new byte[50];
        assertTrue(CobsFramer.encode(f, 0, f.length, out, 0, out.length) < 0);
    }
}
