package io.spectrum.link.serial;

import io.spectrum.wire.Crc32c;

/**
 * Recovers frames from a byte stream framed by {@link CobsFramer}. A state machine fed any chunking
 * of the stream (one byte at a time or whole reads); it decodes COBS on the fly into a buffer sized
 * once for {@code maxFrame}, checks the CRC-32C at each 0x00 delimiter, and hands back one good frame
 * at a time. Anything wrong drops the bytes up to the next delimiter and is counted: bad COBS (a
 * delimiter inside a block, or too short to hold a CRC), CRC mismatch, oversize (more than
 * {@code maxFrame} frame bytes), empty (two delimiters in a row; senders use a lone delimiter to
 * flush a receiver, so it is counted but is not damage). Allocation-free after construction.
 */
public final class CobsDeframer {
    private final int maxFrame;
    private final byte[] frame;
    private int length;
    private int rawSinceDelimiter;
    private int blockRemaining;
    private boolean zeroPending;
    private boolean discarding;
    private boolean ready;
    private int readyLength;

    private long framesOk;
    private long badCobs;
    private long crcMismatch;
    private long oversize;
    private long empty;

    /**
     * A deframer that accepts frames of up to {@code maxFrame} bytes (CRC excluded); its buffer is
     * allocated here, once.
     */
    public CobsDeframer(int maxFrame) {
        this.maxFrame = maxFrame;
        this.frame = new byte[maxFrame + CobsFramer.CRC_BYTES];
    }

    /**
     * Consumes bytes until a good frame completes or the input ends.
     *
     * @return bytes consumed; when {@link #hasFrame()} is then true, the frame is
     *     {@code frame()[0, frameLength())} and stays valid until the next call
     */
    public int consume(byte[] src, int off, int len) {
        ready = false;
        for (int i = 0; i < len; i++) {
            if (accept(src[off + i]) && ready) {
                return i + 1;
            }
        }
        return len;
    }

    /** Feeds one byte; true when it ended a frame (good or dropped). */
    private boolean accept(byte raw) {
        int b = raw & 0xFF;
        if (b == 0) {
            endOfFrame();
            return true;
        }
        rawSinceDelimiter++;
        if (discarding) {
            return false;
        }
        if (blockRemaining == 0) {
            // A code byte: the previous block's implicit zero is real only now that another block follows.
            if (zeroPending) {
                append(0);
            }
            blockRemaining = b - 1;
            zeroPending = b != 0xFF;
        } else {
            append(b);
            blockRemaining--;
        }
        return false;
    }

    private void append(int b) {
        if (length == frame.length) {
            oversize++;
            discarding = true;
            return;
        }
        frame[length++] = (byte) b;
    }

    private void endOfFrame() {
        if (rawSinceDelimiter == 0) {
            empty++;
        } else if (discarding) {
            // already counted as oversize
        } else if (blockRemaining != 0 || length <= CobsFramer.CRC_BYTES) {
            badCobs++;
        } else {
            int body = length - CobsFramer.CRC_BYTES;
            int want = (frame[body] & 0xFF) | (frame[body + 1] & 0xFF) << 8
                    | (frame[body + 2] & 0xFF) << 16 | (frame[body + 3] & 0xFF) << 24;
            if (Crc32c.compute(frame, 0, body) != want) {
                crcMismatch++;
            } else {
                ready = true;
                readyLength = body;
                framesOk++;
            }
        }
        length = 0;
        rawSinceDelimiter = 0;
        blockRemaining = 0;
        zeroPending = false;
        discarding = false;
    }

    /** Forgets a partial frame (after the port was reopened); counters are kept. */
    public void reset() {
        length = 0;
        rawSinceDelimiter = 0;
        blockRemaining = 0;
        zeroPending = false;
        discarding = false;
        ready = false;
    }

    /** True when the last {@link #consume} call completed a good frame. */
    public boolean hasFrame() {
        return ready;
    }

    /**
     * The deframer's own buffer: the good frame is {@code frame()[0, frameLength())}, valid until
     * the next call. Not a copy.
     */
    public byte[] frame() {
        return frame;
    }

    /** Bytes of the completed frame (CRC stripped), 0 when {@link #hasFrame()} is false. */
    public int frameLength() {
        return ready ? readyLength : 0;
    }

    /** Largest frame accepted, in bytes, fixed at construction. */
    public int maxFrame() {
        return maxFrame;
    }

    /** Good frames recovered since construction. */
    public long framesOk() {
        return framesOk;
    }

    /** Frames dropped for bad COBS: a delimiter inside a block, or too short to hold a CRC. */
    public long badCobs() {
        return badCobs;
    }

    /** Frames dropped because their CRC-32C did not match. */
    public long crcMismatch() {
        return crcMismatch;
    }

    /** Frames dropped for holding more than {@link #maxFrame()} bytes. */
    public long oversize() {
        return oversize;
    }

    /** Empty frames (two delimiters in a row): a sender's flush, counted but not damage. */
    public long empty() {
        return empty;
    }
}
