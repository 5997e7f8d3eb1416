package io.spectrum.link.serial;

import io.spectrum.wire.Crc32c;
import io.spectrum.wire.WireError;

/**
 * Frames one libtracer frame for a byte stream: {@code COBS(frame ‖ crc32c_le(frame)) 0x00}.
 *
 * <p>COBS (Consistent Overhead Byte Stuffing) removes every 0x00 from the stuffed bytes, so 0x00 can
 * only be a frame delimiter and a receiver that lost its place resynchronises at the next 0x00. The
 * CRC-32C covers the whole libtracer frame, header included (libtracer's own CRC trailer does not
 * cover the header). Overhead: 4 CRC bytes, one code byte per started 254-byte run, one delimiter.
 * Stateless and allocation-free.
 */
public final class CobsFramer {
    /** Bytes of the frame check appended before stuffing. */
    public static final int CRC_BYTES = 4;

    private CobsFramer() {
    }

    /** Worst-case wire size of a frame of {@code frameLen} bytes, delimiter included. */
    public static int maxEncodedLength(int frameLen) {
        int n = frameLen + CRC_BYTES;
        return n + n / 254 + 1 + 1;
    }

    /**
     * Encodes {@code src[off, off+len)} into {@code out} starting at {@code outOff}.
     *
     * @return bytes written, or {@code -FLOW_BACKPRESSURE} when {@code outCap} cannot hold the worst case
     */
    public static int encode(byte[] src, int off, int len, byte[] out, int outOff, int outCap) {
        if (outCap < maxEncodedLength(len)) {
            return -WireError.FLOW_BACKPRESSURE;
        }
        int crc = Crc32c.compute(src, off, len);
        int o = outOff;
        int codeAt = o++;
        int code = 1;
        int total = len + CRC_BYTES;
        for (int i = 0; i < total; i++) {
            int b = i < len ? src[off + i] & 0xFF : (crc >>> (8 * (i - len))) & 0xFF;
            if (b == 0) {
                out[codeAt] = (byte) code;
                codeAt = o++;
                code = 1;
            } else {
                out[o++] = (byte) b;
                code++;
                if (code == 0xFF) {
                    out[codeAt] = (byte) code;
                    codeAt = o++;
                    code = 1;
                }
            }
        }
        out[codeAt] = (byte) code;
        out[o++] = 0;
        return o - outOff;
    }
}
