package io.spectrum.link;

import io.spectrum.wire.Opt;

/**
 * The cheap outer check a link applies to a received frame before handing it to the node (after
 * COBS and CRC on serial, per datagram on UDP): it must be exactly one libtracer frame (header,
 * declared length and trailers add up to the frame size, type not 0, reserved opt bits clear).
 * The node's decoder checks everything inside. Allocation-free.
 */
public final class FrameShape {
    private FrameShape() {
    }

    /**
     * True when {@code b[off, off+len)} is exactly one libtracer frame: type not 0, reserved opt
     * bits clear, and header, declared length and trailers add up to {@code len}.
     */
    public static boolean isOneFrame(byte[] b, int off, int len) {
        if (len < 4) {
            return false;
        }
        int type = b[off] & 0xFF;
        int opt = b[off + 1] & 0xFF;
        if (type == 0 || (opt & Opt.RESERVED) != 0) {
            return false;
        }
        int header = Opt.headerSize(opt);
        if (len < header) {
            return false;
        }
        long body;
        if (header == 6) {
            body = (b[off + 2] & 0xFFL) | (b[off + 3] & 0xFFL) << 8 | (b[off + 4] & 0xFFL) << 16
                    | (b[off + 5] & 0xFFL) << 24;
        } else {
            body = (b[off + 2] & 0xFF) | (b[off + 3] & 0xFF) << 8;
        }
        return header + body + Opt.tsSize(opt) + Opt.crcSize(opt) == len;
    }
}
