package io.spectrum.link.serial;

import java.util.Random;

/**
 * A seeded byte-stream relay that flips bits in, drops and inserts bytes at a set rate, and records
 * which original frames (counted by their 0x00 delimiters) it touched. Used between two in-memory
 * lines and between two pty pairs.
 */
final class NoisyRelay {
    private final SerialPortIo from;
    private final SerialPortIo to;
    private final Random random;
    private final int oneIn;
    private final byte[] in = new byte[4096];
    private final byte[] out = new byte[3 * 4096];
    private int outOff;
    private int outLen;
    /** damaged[k] = the relay touched the k-th frame of the original stream (0-based, by delimiter). */
    final boolean[] damaged;
    int frameIndex;
    int flips;
    int drops;
    int inserts;

    NoisyRelay(SerialPortIo from, SerialPortIo to, long seed, int oneIn, int maxFrames) {
        this.from = from;
        this.to = to;
        this.random = new Random(seed);
        this.oneIn = oneIn;
        this.damaged = new boolean[maxFrames + 2];
    }

    /**
     * Moves what is waiting; returns bytes read (0 when nothing moved or the far side is full) or -1
     * if a port failed. Never blocks: output the far side cannot take yet is kept for the next call.
     */
    int pump() {
        if (outOff < outLen) {
            if (!drain()) {
                return -1;
            }
            if (outOff < outLen) {
                return 0;
            }
        }
        int n = from.read(in, 0, in.length);
        if (n <= 0) {
            return n;
        }
        int o = 0;
        for (int i = 0; i < n; i++) {
            byte b = in[i];
            if (random.nextInt(oneIn) == 0) {
                damaged[Math.min(frameIndex, damaged.length - 1)] = true;
                switch (random.nextInt(3)) {
                    case 0 -> {
                        flips++;
                        out[o++] = (byte) (b ^ (1 << random.nextInt(8)));
                    }
                    case 1 -> drops++;
                    default -> {
                        inserts++;
                        out[o++] = (byte) random.nextInt(256);
                        out[o++] = b;
                    }
                }
            } else {
                out[o++] = b;
            }
            if (b == 0) {
                frameIndex++;
            }
        }
        outOff = 0;
        outLen = o;
        return drain() ? n : -1;
    }

    private boolean drain() {
        while (outOff < outLen) {
            int w = to.write(out, outOff, outLen - outOff);
            if (w < 0) {
                return false;
            }
            if (w == 0) {
                return true;
            }
            outOff += w;
        }
        return true;
    }

    boolean idle() {
        return outOff >= outLen;
    }
}
