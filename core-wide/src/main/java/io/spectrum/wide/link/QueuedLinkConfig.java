package io.spectrum.wide.link;

import io.spectrum.time.Clock;
import io.spectrum.time.SystemClock;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.util.function.Supplier;

/**
 * The knobs of a {@link QueuedLink}: the bounds of its queues and pools, the slow-consumer rule and how
 * its I/O thread waits. Immutable; made by {@link #builder()}, whose {@link Builder#build()} checks every
 * value and names the first bad one. Everything is sized once when the link is wrapped.
 *
 * <pre>{@code
 * QueuedLinkConfig cfg = QueuedLinkConfig.builder().peerQueueFrames(64).disconnectDrops(256).build();
 * QueuedLink link = QueuedLink.wrap(UdpLink.listen(...), cfg);
 * }</pre>
 */
public final class QueuedLinkConfig {
    private final Builder v;

    private QueuedLinkConfig(Builder b) {
        v = new Builder(b);
    }

    /** A builder starting from the defaults (64 frames per peer, 256 drops in 1 s disconnect a peer). */
    public static Builder builder() {
        return new Builder();
    }

    /** The defaults, checked. */
    public static QueuedLinkConfig defaults() {
        return builder().build();
    }

    /** Frames one peer's outbound queue holds; a frame past it pushes the oldest out (drop-oldest). */
    public int peerQueueFrames() {
        return v.peerQueueFrames;
    }

    /**
     * Outbound frame buffers shared by all peers of the link (in transit to the I/O thread plus queued
     * per peer). A send that finds none free is refused with FLOW_BACKPRESSURE and counted.
     */
    public int outboundFrames() {
        return v.outboundFrames;
    }

    /** Received frames waiting for the node thread; a frame arriving with none free is dropped (newest). */
    public int inboundFrames() {
        return v.inboundFrames;
    }

    /** Pooled peer events (up, down, probe) waiting for the node thread; more are allocated and counted. */
    public int eventFrames() {
        return v.eventFrames;
    }

    /** Initial size of each pooled frame buffer; a buffer grows (once) to the largest frame it carried. */
    public int frameBytes() {
        return v.frameBytes;
    }

    /**
     * Peer handles 0..maxPeers-1 get an outbound queue; 0 takes the inner link's peer-table capacity (1
     * for a link without one: a serial line, a dialer).
     */
    public int maxPeers() {
        return v.maxPeers;
    }

    /** Drops within {@link #disconnectWindowNanos()} that disconnect a peer as a slow consumer; 0: never. */
    public int disconnectDrops() {
        return v.disconnectDrops;
    }

    /** The window, in nanoseconds, in which {@link #disconnectDrops()} drops disconnect a peer (default 1 s). */
    public long disconnectWindowNanos() {
        return v.disconnectWindowNanos;
    }

    /**
     * How long a disconnected peer is ignored: its frames are dropped until then; its first frame after
     * it (or the inner link reporting it up again) brings it back with an empty queue.
     */
    public long rejoinAfterNanos() {
        return v.rejoinAfterNanos;
    }

    /** Frames the I/O thread reads from the inner link per poll. */
    public int pollBatch() {
        return v.pollBatch;
    }

    /** Frames the I/O thread sends to one peer before serving the next (round robin). */
    public int sendBurst() {
        return v.sendBurst;
    }

    /** Longest the I/O thread sleeps without news (the inner link's liveness timers run in its poll). */
    public long maxBlockNanos() {
        return v.maxBlockNanos;
    }

    /** While a peer's inner send answers FLOW_BACKPRESSURE, the I/O thread retries it after this long. */
    public long retryNanos() {
        return v.retryNanos;
    }

    /**
     * The idle strategy of an inner link that can neither be selected nor wake the I/O thread (its
     * {@code setReadiness} answers false); agrona's {@link BackoffIdleStrategy} by default.
     */
    public IdleStrategy newPollIdleStrategy() {
        return v.pollIdle.get();
    }

    /** The clock of the disconnect window and the rejoin delay. */
    public Clock clock() {
        return v.clock;
    }

    /** Collects the knobs; {@link #build()} checks each against its range. */
    public static final class Builder {
        private int peerQueueFrames = 64;
        private int outboundFrames = 4096;
        private int inboundFrames = 1024;
        private int eventFrames = 256;
        private int frameBytes = 512;
        private int maxPeers = 0;
        private int disconnectDrops = 256;
        private long disconnectWindowNanos = 1_000_000_000L;
        private long rejoinAfterNanos = 1_000_000_000L;
        private int pollBatch = 64;
        private int sendBurst = 16;
        private long maxBlockNanos = 20_000_000L;
        private long retryNanos = 100_000L;
        private Supplier<IdleStrategy> pollIdle = () -> new BackoffIdleStrategy(100, 10, 1_000, 1_000_000);
        private Clock clock = SystemClock.INSTANCE;

        private Builder() {
        }

        private Builder(Builder b) {
            peerQueueFrames = b.peerQueueFrames;
            outboundFrames = b.outboundFrames;
            inboundFrames = b.inboundFrames;
            eventFrames = b.eventFrames;
            frameBytes = b.frameBytes;
            maxPeers = b.maxPeers;
            disconnectDrops = b.disconnectDrops;
            disconnectWindowNanos = b.disconnectWindowNanos;
            rejoinAfterNanos = b.rejoinAfterNanos;
            pollBatch = b.pollBatch;
            sendBurst = b.sendBurst;
            maxBlockNanos = b.maxBlockNanos;
            retryNanos = b.retryNanos;
            pollIdle = b.pollIdle;
            clock = b.clock;
        }

        /** Frames per peer's outbound queue (1..2^20; default 64). */
        public Builder peerQueueFrames(int frames) {
            peerQueueFrames = frames;
            return this;
        }

        /** Outbound frame buffers shared by all peers (1..2^24; default 4096). */
        public Builder outboundFrames(int frames) {
            outboundFrames = frames;
            return this;
        }

        /** Received frames that may wait for the node thread (1..2^24; default 1024). */
        public Builder inboundFrames(int frames) {
            inboundFrames = frames;
            return this;
        }

        /** Pooled peer events (1..2^20; default 256). */
        public Builder eventFrames(int frames) {
            eventFrames = frames;
            return this;
        }

        /** Initial bytes of each pooled frame buffer (4..2^20; default 512). */
        public Builder frameBytes(int bytes) {
            frameBytes = bytes;
            return this;
        }

        /** Peers with an outbound queue (0..2^22; 0, the default, takes the inner link's peer capacity). */
        public Builder maxPeers(int peers) {
            maxPeers = peers;
            return this;
        }

        /** Drops within the window that disconnect a slow peer (0 never; default 256). */
        public Builder disconnectDrops(int drops) {
            disconnectDrops = drops;
            return this;
        }

        /** The disconnect window in milliseconds (at least 1; default 1000). */
        public Builder disconnectWindowMillis(long millis) {
            disconnectWindowNanos = millis * 1_000_000L;
            return this;
        }

        /** How long a disconnected peer is ignored, in milliseconds (0 or more; default 1000). */
        public Builder rejoinAfterMillis(long millis) {
            rejoinAfterNanos = millis * 1_000_000L;
            return this;
        }

        /** Frames read from the inner link per poll (1..65536; default 64). */
        public Builder pollBatch(int frames) {
            pollBatch = frames;
            return this;
        }

        /** Frames sent to one peer before the next is served (1..65536; default 16). */
        public Builder sendBurst(int frames) {
            sendBurst = frames;
            return this;
        }

        /** Longest wait of the I/O thread without news, in microseconds (at least 1; default 20 000). */
        public Builder maxBlockMicros(long micros) {
            maxBlockNanos = micros * 1_000L;
            return this;
        }

        /** Retry delay after a FLOW_BACKPRESSURE send, in microseconds (at least 1; default 100). */
        public Builder retryMicros(long micros) {
            retryNanos = micros * 1_000L;
            return this;
        }

        /** Makes the idle strategy for an inner link that cannot wake the I/O thread (one per link). */
        public Builder pollIdleStrategy(Supplier<IdleStrategy> factory) {
            pollIdle = factory;
            return this;
        }

        /** The clock of the disconnect window and rejoin delay (default the system clock). */
        public Builder clock(Clock c) {
            clock = c;
            return this;
        }

        /** The checked config; {@link IllegalArgumentException} naming the first value out of its range. */
        public QueuedLinkConfig build() {
            check("peerQueueFrames", peerQueueFrames, 1, 1 << 20);
            check("outboundFrames", outboundFrames, 1, 1 << 24);
            check("inboundFrames", inboundFrames, 1, 1 << 24);
            check("eventFrames", eventFrames, 1, 1 << 20);
            check("frameBytes", frameBytes, 4, 1 << 20);
            check("maxPeers", maxPeers, 0, 1 << 22);
            check("disconnectDrops", disconnectDrops, 0, Integer.MAX_VALUE);
            check("pollBatch", pollBatch, 1, 1 << 16);
            check("sendBurst", sendBurst, 1, 1 << 16);
            checkNanos("disconnectWindow", disconnectWindowNanos, 1);
            checkNanos("rejoinAfter", rejoinAfterNanos, 0);
            checkNanos("maxBlock", maxBlockNanos, 1_000);
            checkNanos("retry", retryNanos, 1_000);
            if (pollIdle == null || clock == null) {
                throw new IllegalArgumentException(pollIdle == null ? "pollIdleStrategy must be given"
                        : "clock must be given");
            }
            return new QueuedLinkConfig(this);
        }

        private static void check(String name, int value, int min, int max) {
            if (value < min || value > max) {
                throw new IllegalArgumentException(name + " must be " + min + ".." + max + ", was " + value);
            }
        }

        private static void checkNanos(String name, long nanos, long min) {
            if (nanos < min) {
                throw new IllegalArgumentException(name + " must be at least " + min + " ns, was " + nanos);
            }
        }
    }
}
