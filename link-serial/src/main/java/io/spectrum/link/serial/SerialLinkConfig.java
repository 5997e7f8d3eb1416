package io.spectrum.link.serial;

/** Limits and timers of one {@link SerialLink}; fixed once the link is created. */
public final class SerialLinkConfig {
    int baud = 115200;
    int maxFrame = 4096;
    int readChunk = 1024;
    long reopenInitialNanos = 100_000_000L;
    long reopenMaxNanos = 2_000_000_000L;
    long peerTimeoutNanos = 10_000_000_000L;
    long pingIntervalNanos = 3_000_000_000L;
    int writeRetries = 3;
    int sendQueueFrames = 8;
    boolean controlYields = true;

    /**
     * The line speed in bits per second (default 115200).
     *
     * @throws IllegalArgumentException when {@code baud} is not positive
     */
    public SerialLinkConfig baud(int baud) {
        if (baud <= 0) {
            throw new IllegalArgumentException("baud must be > 0: " + baud);
        }
        this.baud = baud;
        return this;
    }

    /**
     * Largest libtracer frame carried (before the CRC and stuffing); default 4096. A node this link
     * is attached to refuses at write time any value that would not fit one such frame with its
     * envelope (the smallest attached link's frame wins; {@code --frame} on the command line).
     */
    public SerialLinkConfig maxFrame(int bytes) {
        if (bytes < 4 || bytes > 16 * 1024 * 1024) {
            throw new IllegalArgumentException("maxFrame must be 4..16 MiB: " + bytes);
        }
        maxFrame = bytes;
        return this;
    }

    /** Bytes read from the port per read call. */
    public SerialLinkConfig readChunk(int bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException("readChunk must be >= 1: " + bytes);
        }
        readChunk = bytes;
        return this;
    }

    /** First wait before reopening a vanished port; doubles per failed attempt up to {@code maxMillis}. */
    public SerialLinkConfig reopenBackoffMillis(long initialMillis, long maxMillis) {
        if (initialMillis <= 0 || maxMillis < initialMillis) {
            throw new IllegalArgumentException("need 0 < initial <= max");
        }
        reopenInitialNanos = initialMillis * 1_000_000L;
        reopenMaxNanos = maxMillis * 1_000_000L;
        return this;
    }

    /** A peer silent longer than this is reported down while the port stays open; 0 disables. */
    public SerialLinkConfig peerTimeoutMillis(long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("peerTimeout must be >= 0: " + millis);
        }
        peerTimeoutNanos = millis * 1_000_000L;
        return this;
    }

    /** A peer silent this long is probed through the link's {@link io.spectrum.link.LivenessProbe}. */
    public SerialLinkConfig pingIntervalMillis(long millis) {
        if (millis <= 0) {
            throw new IllegalArgumentException("pingInterval must be > 0: " + millis);
        }
        pingIntervalNanos = millis * 1_000_000L;
        return this;
    }

    /**
     * How many times a write that made no progress is retried (with a yield) before the link keeps
     * the rest of the frame for later; 0 gives up at once.
     */
    public SerialLinkConfig writeRetries(int retries) {
        if (retries < 0) {
            throw new IllegalArgumentException("writeRetries must be >= 0: " + retries);
        }
        writeRetries = retries;
        return this;
    }

    /**
     * Frames (each up to {@link #maxFrame}) that wait in the link while the line is busy, instead of
     * being refused with backpressure; 0 keeps only the frame on the wire.
     */
    public SerialLinkConfig sendQueueFrames(int frames) {
        if (frames < 0 || frames > 256) {
            throw new IllegalArgumentException("sendQueueFrames must be 0..256: " + frames);
        }
        sendQueueFrames = frames;
        return this;
    }

    /**
     * Whether queued control traffic (READ / AWAIT requests, REPLYs) yields to queued data (FWD
     * WRITE: deliveries, publishes); on by default. Off: the queue is first in, first out.
     */
    public SerialLinkConfig controlYields(boolean on) {
        controlYields = on;
        return this;
    }

    /** The line speed in bits per second. */
    public int baud() {
        return baud;
    }

    /** Largest frame carried, in bytes before COBS and CRC (default 4096). */
    public int maxFrame() {
        return maxFrame;
    }
}
