package io.spectrum.node.api;

import io.spectrum.time.Clock;
import io.spectrum.time.SystemClock;

/**
 * Sizes of every pool a node allocates once at start, and its timers. Running out of any of them
 * is a typed refusal, never growth. Immutable; made by {@link #builder()}, whose {@link
 * Builder#build()} checks every field and names the first bad one:
 *
 * <pre>{@code
 * NodeConfig cfg = NodeConfig.builder().maxVertices(64).maxSubscribers(128).valueBytes(8 * 1024).build();
 * // NodeConfig.builder().maxVertices(0).build() throws
 * // IllegalArgumentException("maxVertices must be 2..16777216, was 0")
 * }</pre>
 *
 * <p>Validation runs at configuration time only; a node never re-checks its configuration.
 */
public final class NodeConfig {
    /** A private snapshot of the builder's values: the configuration cannot change after build(). */
    private final Builder v;

    private NodeConfig(Builder b) {
        v = new Builder(b);
    }

    /** A builder holding the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** The default configuration. */
    public static NodeConfig defaults() {
        return builder().build();
    }

    /** A builder holding this configuration's values (to derive a variant). */
    public Builder toBuilder() {
        return new Builder(v);
    }

    /** Vertices (the root counts as one). */
    public int maxVertices() {
        return v.maxVertices;
    }

    /** Subscriber slots shared by all vertices. */
    public int maxSubscribers() {
        return v.maxSubscribers;
    }

    /** Bytes of last-known-value storage. */
    public int valueBytes() {
        return v.valueBytes;
    }

    /** Bytes of subscriber record / return route storage. */
    public int recordBytes() {
        return v.recordBytes;
    }

    /** Largest PATH body of a vertex key (a path limit: longer is PATH_INVALID). */
    public int maxKeyBytes() {
        return v.maxKeyBytes;
    }

    /** Size of the node's transmit scratch buffer (largest frame it builds). */
    public int frameBytes() {
        return v.frameBytes;
    }

    /** TLVs per decoded frame. */
    public int maxTlvsPerFrame() {
        return v.maxTlvsPerFrame;
    }

    /** Pending remote AWAITs. */
    public int maxAwaits() {
        return v.maxAwaits;
    }

    /** Bytes kept per pending await for its dst and src routes. */
    public int awaitRouteBytes() {
        return v.awaitRouteBytes;
    }

    /** Links that can be attached. */
    public int maxLinks() {
        return v.maxLinks;
    }

    /** Remote subscriptions this node keeps as a client, and outstanding remote requests. */
    public int maxRemoteSubscriptions() {
        return v.maxRemoteSubscriptions;
    }

    /** Bytes kept per outstanding remote request for its answer. */
    public int remoteResultBytes() {
        return v.remoteResultBytes;
    }

    /** Largest value a publish may carry (whole TLV); above it FLOW_BACKPRESSURE. */
    public int payloadCap() {
        return v.payloadCap;
    }

    /** How long a stale value is kept for its publisher to come back. */
    public long staleGraceNanos() {
        return v.staleGraceNanos;
    }

    /** AWAIT timeout when the request carries none. */
    public long defaultAwaitTimeoutNanos() {
        return v.defaultAwaitTimeoutNanos;
    }

    /** Frames taken from each link per poll(). */
    public int framesPerPoll() {
        return v.framesPerPoll;
    }

    /**
     * Subscriber slots one remote peer (link, peer) may hold at once; its next append is refused
     * with {@code tr::flow::backpressure} and counted. Default: a quarter of {@link #maxSubscribers()}.
     */
    public int slotsPerPeer() {
        return v.slotsPerPeer > 0 ? v.slotsPerPeer : Math.max(1, v.maxSubscribers / 4);
    }

    /**
     * Pending AWAITs one remote peer may hold at once; its next AWAIT is refused with
     * {@code tr::flow::backpressure} and counted. Default: a quarter of {@link #maxAwaits()}.
     */
    public int awaitsPerPeer() {
        return v.awaitsPerPeer > 0 ? v.awaitsPerPeer : Math.max(1, v.maxAwaits / 4);
    }

    /**
     * Vertices one remote peer may have created for its subscriptions under a mount and still hold
     * (a host's {@link #serveSubscriptionsUnderMounts()}: the append creates the path on demand);
     * its next append that would create more is refused with {@code tr::flow::backpressure} and
     * counted. A WIDE core keeps this share (docs/node.md, "Vertices a subscription created").
     * Default: a quarter of {@link #maxVertices()}.
     */
    public int verticesPerPeer() {
        return v.verticesPerPeer > 0 ? v.verticesPerPeer : Math.max(1, v.maxVertices / 4);
    }

    /**
     * The longest AWAIT a remote peer may ask for: a longer requested timeout is clamped to this
     * (the await is admitted and answers {@code tr::flow::timeout} at the cap), so a plain v1 client
     * still works and nobody parks an entry for an hour.
     */
    public long maxAwaitTimeoutNanos() {
        return v.maxAwaitTimeoutNanos;
    }

    /**
     * Remote peers that may be recorded as having announced Spectrum's extensions, all links
     * together ({@code maxLinks} × {@link io.spectrum.node.fwd.LinkTable#ANNOUNCED_PEERS_PER_LINK}
     * unless set): a peer announcing to a full table is answered as a plain v1 peer (counted in
     * {@code node.announcedPeers}'s refusals).
     */
    public int maxAnnouncedPeers() {
        return v.maxAnnouncedPeers > 0 ? v.maxAnnouncedPeers
                : v.maxLinks * io.spectrum.node.fwd.LinkTable.ANNOUNCED_PEERS_PER_LINK;
    }

    /**
     * Remote peers the node keeps shares for (an entry lives while its peer holds a slot or an
     * await); a full table refuses a new peer's first slot or await with backpressure.
     */
    public int sharePeers() {
        return v.sharePeers;
    }

    /**
     * Delivery frames per second one remote peer may be sent (a token bucket of
     * {@link #peerDeliveryBurst()} frames); deliveries beyond it are dropped and counted, never
     * queued. 0 = no limit.
     */
    public int peerDeliveriesPerSecond() {
        return v.peerDeliveriesPerSecond;
    }

    /** The token bucket depth of {@link #peerDeliveriesPerSecond()}: deliveries sent back to back. */
    public int peerDeliveryBurst() {
        return v.peerDeliveryBurst;
    }

    /** How often {@code tick()} refreshes {@code /$node/stats} (the node's overload counters); 0 = never. */
    public long statsPeriodNanos() {
        return v.statsPeriodNanos;
    }

    /**
     * How often {@code tick()} sweeps for subscribers whose channel is gone without their link saying
     * so (docs/node.md, "A subscriber's channel gone"); 0 = never (a failed send still finds them).
     */
    public long channelSweepNanos() {
        return v.channelSweepNanos;
    }

    /** The clock every grace period, await timeout, liveness and stats period of the node reads. */
    public Clock clock() {
        return v.clock;
    }

    /** Read gate for remote callers; null = allow everyone. */
    public AccessPolicy accessPolicy() {
        return v.accessPolicy;
    }

    /**
     * Whether remote callers may write vertices that carry no {@link VertexSchema} declaration.
     * Off by default: a remote write to an undeclared vertex is {@code tr::access::denied}. A node
     * that mirrors other nodes' values under its own paths (a host) turns it on.
     */
    public boolean remoteWritesToUndeclared() {
        return v.remoteWritesToUndeclared;
    }

    /**
     * Mount names the node routes FWD frames under (single-peer mounts and listener mounts
     * together); a further mount is refused with {@code tr::flow::backpressure}.
     */
    public int maxMounts() {
        return v.maxMounts;
    }

    /**
     * Whether a {@code :subscribers} request under a mount is served here, on the full local path,
     * instead of being forwarded (a host terminates subscriptions; docs/routing.md). Off by default:
     * a routing board forwards it like a libtracer router.
     */
    public boolean serveSubscriptionsUnderMounts() {
        return v.serveSubscriptionsUnderMounts;
    }

    /**
     * Whether the node gives a value that arrives without an origin time its own: the clock's
     * {@link Clock#epochNanos()} in ms at the publish (docs/extensions.md "Origin time"). Off by
     * default: a board's clock need not be set (a UART-only board, a Pi without network time), so the
     * first host that receives the value gives it; a host turns it on. A value that already carries
     * an origin (a delivery of this node's remote subscription whose stamp has one) keeps it either way.
     */
    public boolean givesOrigins() {
        return v.givesOrigins;
    }

    /**
     * How many of its last values a NARROW node keeps per declared vertex, with their sequence and
     * origin, for a host that missed them while the link was down (docs/board.md "Store and forward",
     * docs/extensions.md "Backfill"): one fixed ring per declared vertex, sized once when the vertex is
     * declared. 0 turns it off (the node then does not offer backfill in its caps). Default 16.
     */
    public int backfillDepth() {
        return v.backfillDepth;
    }

    /** Collects a {@link NodeConfig}; {@link #build()} validates. Not thread-safe. */
    public static final class Builder {
        static final int MAX_TABLE = 1 << 24;
        static final int MAX_POOL = 1 << 30;

        private int maxVertices = 256;
        private int maxSubscribers = 1024;
        private int valueBytes = 64 * 1024;
        private int recordBytes = 64 * 1024;
        private int maxKeyBytes = 64;
        private int frameBytes = 4096;
        private int maxTlvsPerFrame = 128;
        private int maxAwaits = 16;
        private int awaitRouteBytes = 256;
        private int maxLinks = 8;
        private int maxRemoteSubscriptions = 16;
        private int remoteResultBytes = 512;
        private int payloadCap = 1024 * 1024;
        private long staleGraceNanos = 60_000_000_000L;
        private long defaultAwaitTimeoutNanos = 1_000_000_000L;
        private int framesPerPoll = 32;
        private int slotsPerPeer;
        private int awaitsPerPeer;
        private int verticesPerPeer;
        private long maxAwaitTimeoutNanos = 60_000_000_000L;
        private int sharePeers = 64;
        private int maxAnnouncedPeers;
        private int peerDeliveriesPerSecond = 2000;
        private int peerDeliveryBurst = 500;
        private long statsPeriodNanos = 1_000_000_000L;
        private long channelSweepNanos = 1_000_000_000L;
        private Clock clock = SystemClock.INSTANCE;
        private AccessPolicy accessPolicy;
        private boolean remoteWritesToUndeclared;
        private int maxMounts = 4;
        private boolean serveSubscriptionsUnderMounts;
        private boolean givesOrigins;
        private int backfillDepth = 16;

        private Builder() {
        }

        private Builder(Builder c) {
            maxVertices = c.maxVertices;
            maxSubscribers = c.maxSubscribers;
            valueBytes = c.valueBytes;
            recordBytes = c.recordBytes;
            maxKeyBytes = c.maxKeyBytes;
            frameBytes = c.frameBytes;
            maxTlvsPerFrame = c.maxTlvsPerFrame;
            maxAwaits = c.maxAwaits;
            awaitRouteBytes = c.awaitRouteBytes;
            maxLinks = c.maxLinks;
            maxRemoteSubscriptions = c.maxRemoteSubscriptions;
            remoteResultBytes = c.remoteResultBytes;
            payloadCap = c.payloadCap;
            staleGraceNanos = c.staleGraceNanos;
            defaultAwaitTimeoutNanos = c.defaultAwaitTimeoutNanos;
            framesPerPoll = c.framesPerPoll;
            slotsPerPeer = c.slotsPerPeer;
            awaitsPerPeer = c.awaitsPerPeer;
            verticesPerPeer = c.verticesPerPeer;
            maxAwaitTimeoutNanos = c.maxAwaitTimeoutNanos;
            sharePeers = c.sharePeers;
            maxAnnouncedPeers = c.maxAnnouncedPeers;
            peerDeliveriesPerSecond = c.peerDeliveriesPerSecond;
            peerDeliveryBurst = c.peerDeliveryBurst;
            statsPeriodNanos = c.statsPeriodNanos;
            channelSweepNanos = c.channelSweepNanos;
            clock = c.clock;
            accessPolicy = c.accessPolicy;
            remoteWritesToUndeclared = c.remoteWritesToUndeclared;
            maxMounts = c.maxMounts;
            serveSubscriptionsUnderMounts = c.serveSubscriptionsUnderMounts;
            givesOrigins = c.givesOrigins;
            backfillDepth = c.backfillDepth;
        }

        /** Vertices, the root included: 2..16777216 (default 256). */
        public Builder maxVertices(int v) {
            maxVertices = v;
            return this;
        }

        /** Subscriber slots shared by all vertices: 1..16777216 (default 1024). */
        public Builder maxSubscribers(int v) {
            maxSubscribers = v;
            return this;
        }

        /** Bytes of last-known-value storage: 16..2^30 (default 64 KiB). */
        public Builder valueBytes(int v) {
            valueBytes = v;
            return this;
        }

        /** Bytes of subscriber record / return route storage: 16..2^30 (default 64 KiB). */
        public Builder recordBytes(int v) {
            recordBytes = v;
            return this;
        }

        /** Largest PATH body of a vertex key: 1..65535 (default 64). */
        public Builder maxKeyBytes(int v) {
            maxKeyBytes = v;
            return this;
        }

        /** Transmit buffer size, the largest frame the node builds: 64..16777216 (default 4096). */
        public Builder frameBytes(int v) {
            frameBytes = v;
            return this;
        }

        /** TLVs per decoded frame: 1..65535 (default 128). */
        public Builder maxTlvsPerFrame(int v) {
            maxTlvsPerFrame = v;
            return this;
        }

        /** Pending remote AWAITs: 1..65535 (default 16). */
        public Builder maxAwaits(int v) {
            maxAwaits = v;
            return this;
        }

        /** Bytes kept per pending await for its dst and src routes: 8..65535 (default 256). */
        public Builder awaitRouteBytes(int v) {
            awaitRouteBytes = v;
            return this;
        }

        /** Links that can be attached: 1..1024 (default 8). */
        public Builder maxLinks(int v) {
            maxLinks = v;
            return this;
        }

        /** Remote subscriptions and outstanding remote requests: 1..65535 (default 16). */
        public Builder maxRemoteSubscriptions(int v) {
            maxRemoteSubscriptions = v;
            return this;
        }

        /** Bytes kept per outstanding remote request for its answer: 4..16777216 (default 512). */
        public Builder remoteResultBytes(int v) {
            remoteResultBytes = v;
            return this;
        }

        /** Largest value TLV a publish may carry: at least 4 (default 1 MiB). */
        public Builder payloadCap(int v) {
            payloadCap = v;
            return this;
        }

        /** How long a stale value waits for its publisher: at least 0 (default 60 s). */
        public Builder staleGraceNanos(long v) {
            staleGraceNanos = v;
            return this;
        }

        /** Let remote callers write vertices without a declaration (default false: access::denied). */
        public Builder remoteWritesToUndeclared(boolean v) {
            remoteWritesToUndeclared = v;
            return this;
        }

        /** Mounts the router keeps: 0..65535 (default 4). */
        public Builder maxMounts(int v) {
            maxMounts = v;
            return this;
        }

        /** Serve {@code :subscribers} requests under a mount locally (default false: forward them). */
        public Builder serveSubscriptionsUnderMounts(boolean v) {
            serveSubscriptionsUnderMounts = v;
            return this;
        }

        /** Give values without an origin time this node's clock time (default false; a host: true). */
        public Builder givesOrigins(boolean v) {
            givesOrigins = v;
            return this;
        }

        /** Values kept per declared vertex for backfill: 0 (off)..4096 (default 16). */
        public Builder backfillDepth(int v) {
            backfillDepth = v;
            return this;
        }

        /** AWAIT timeout when the request carries none: at least 0 (default 1 s). */
        public Builder defaultAwaitTimeoutNanos(long v) {
            defaultAwaitTimeoutNanos = v;
            return this;
        }

        /** Frames taken from each link per poll(): 1..65535 (default 32). */
        public Builder framesPerPoll(int v) {
            framesPerPoll = v;
            return this;
        }

        /** Slots one remote peer may hold: 1..maxSubscribers (default: a quarter of maxSubscribers). */
        public Builder slotsPerPeer(int v) {
            slotsPerPeer = v;
            return this;
        }

        /** Pending AWAITs one remote peer may hold: 1..maxAwaits (default: a quarter of maxAwaits). */
        public Builder awaitsPerPeer(int v) {
            awaitsPerPeer = v;
            return this;
        }

        /** Vertices one remote peer's subscriptions may create and hold: 1..maxVertices (default: a quarter of maxVertices). */
        public Builder verticesPerPeer(int v) {
            verticesPerPeer = v;
            return this;
        }

        /** Longest AWAIT a remote peer gets (longer requests are clamped): at least 1 ms (default 60 s). */
        public Builder maxAwaitTimeoutNanos(long v) {
            maxAwaitTimeoutNanos = v;
            return this;
        }

        /** Remote peers recorded as announcing the extensions: 1..65535 (default: maxLinks × 8). */
        public Builder maxAnnouncedPeers(int v) {
            maxAnnouncedPeers = v;
            return this;
        }

        /** Remote peers the share table tracks: 1..65535 (default 64). */
        public Builder sharePeers(int v) {
            sharePeers = v;
            return this;
        }

        /** Delivery frames per second per remote peer: 0 (no limit)..16777216 (default 2000). */
        public Builder peerDeliveriesPerSecond(int v) {
            peerDeliveriesPerSecond = v;
            return this;
        }

        /** Token bucket depth of the per-peer delivery rate: 1..16777216 (default 500). */
        public Builder peerDeliveryBurst(int v) {
            peerDeliveryBurst = v;
            return this;
        }

        /** Period of the {@code /$node/stats} refresh done by {@code tick()}: 0 (never) or more (default 1 s). */
        public Builder statsPeriodNanos(long v) {
            statsPeriodNanos = v;
            return this;
        }

        /** The period of the gone-channel sweep (default 1 s; 0: never). */
        public Builder channelSweepNanos(long v) {
            channelSweepNanos = v;
            return this;
        }

        /** The node's time source (not null; default the system clock). */
        public Builder clock(Clock c) {
            clock = c;
            return this;
        }

        /** Read / write gate for remote callers; null (the default) allows everyone. */
        public Builder accessPolicy(AccessPolicy p) {
            accessPolicy = p;
            return this;
        }

        /**
         * Checks every field and makes the configuration.
         *
         * @throws IllegalArgumentException naming the first field out of range, its range and value
         */
        public NodeConfig build() {
            range("maxVertices", maxVertices, 2, MAX_TABLE);
            range("maxSubscribers", maxSubscribers, 1, MAX_TABLE);
            range("valueBytes", valueBytes, 16, MAX_POOL);
            range("recordBytes", recordBytes, 16, MAX_POOL);
            range("maxKeyBytes", maxKeyBytes, 1, 65535);
            range("frameBytes", frameBytes, 64, MAX_TABLE);
            range("maxTlvsPerFrame", maxTlvsPerFrame, 1, 65535);
            range("maxAwaits", maxAwaits, 1, 65535);
            range("awaitRouteBytes", awaitRouteBytes, 8, 65535);
            range("maxLinks", maxLinks, 1, 1024);
            range("maxRemoteSubscriptions", maxRemoteSubscriptions, 1, 65535);
            range("remoteResultBytes", remoteResultBytes, 4, MAX_TABLE);
            range("payloadCap", payloadCap, 4, Integer.MAX_VALUE);
            range("staleGraceNanos", staleGraceNanos, 0, Long.MAX_VALUE);
            range("defaultAwaitTimeoutNanos", defaultAwaitTimeoutNanos, 0, Long.MAX_VALUE);
            range("framesPerPoll", framesPerPoll, 1, 65535);
            if (slotsPerPeer != 0) {
                range("slotsPerPeer", slotsPerPeer, 1, maxSubscribers);
            }
            if (awaitsPerPeer != 0) {
                range("awaitsPerPeer", awaitsPerPeer, 1, maxAwaits);
            }
            if (verticesPerPeer != 0) {
                range("verticesPerPeer", verticesPerPeer, 1, maxVertices);
            }
            range("maxAwaitTimeoutNanos", maxAwaitTimeoutNanos, 1_000_000L, Long.MAX_VALUE);
            range("sharePeers", sharePeers, 1, 65535);
            if (maxAnnouncedPeers != 0) {
                range("maxAnnouncedPeers", maxAnnouncedPeers, 1, 65535);
            }
            range("peerDeliveriesPerSecond", peerDeliveriesPerSecond, 0, MAX_TABLE);
            range("peerDeliveryBurst", peerDeliveryBurst, 1, MAX_TABLE);
            range("statsPeriodNanos", statsPeriodNanos, 0, Long.MAX_VALUE);
            range("channelSweepNanos", channelSweepNanos, 0, Long.MAX_VALUE);
            range("maxMounts", maxMounts, 0, 65535);
            range("backfillDepth", backfillDepth, 0, 4096);
            if (clock == null) {
                throw new IllegalArgumentException("clock must not be null");
            }
            long keyBytes = (long) maxVertices * maxKeyBytes;
            if (keyBytes > MAX_POOL) {
                throw new IllegalArgumentException("maxVertices * maxKeyBytes (the key store) must be at most " + MAX_POOL
                        + ", was " + keyBytes);
            }
            return new NodeConfig(this);
        }

        private static void range(String field, long value, long min, long max) {
            if (value < min || value > max) {
                throw new IllegalArgumentException(field + " must be " + (max == Long.MAX_VALUE || max == Integer.MAX_VALUE
                        ? "at least " + min : min + ".." + max) + ", was " + value);
            }
        }
    }
}
