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
        private Clock clock = SystemClock.INSTANCE;
        private AccessPolicy accessPolicy;
        private boolean remoteWritesToUndeclared;

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
            clock = c.clock;
            accessPolicy = c.accessPolicy;
            remoteWritesToUndeclared = c.remoteWritesToUndeclared;
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
