package io.spectrum.bus.protocol;

import io.spectrum.wire.FrameDecoder;

/**
 * The host bus's configured bounds (docs/bus.md, "Limits"): how many clients,
 * services, topics and subscriptions; the envelope limit; per-client active calls and owners
 * (with an allowance reserved for RPC); latest and bounded subscription caps; the retained-bytes
 * quota; the per-client pool of bounded queued delivery bytes; and the control lane's bound.
 * Immutable; {@link #defaults()} or {@link #builder()}, and {@link Builder#build()} refuses a
 * configuration the bus cannot honour.
 */
public final class BusLimits {
    /**
     * Bytes a request frame may need beyond the largest delivery it causes: its reply route and
     * the request's own FWD header. A request carries no field its delivery lacks, so
     * {@link #maxFrameBytes()} is the envelope limit plus this.
     */
    public static final int REQUEST_HEADROOM = 1024;
    final int maxClients;
    final int maxServices;
    final int maxTopics;
    final int maxSubscriptionsPerClient;
    final int maxSubscriptions;
    final int maxEnvelopeBytes;
    final int maxActiveCallsPerClient;
    final int maxServiceQueued;
    final int maxServiceInFlight;
    final int latestMaxInFlight;
    final int boundedMaxQueued;
    final int boundedMaxInFlight;
    final int maxOwnersPerClient;
    final int reservedRpcOwners;
    final long maxRetainedBytes;
    final long maxBoundedQueuedBytesPerClient;
    final int controlLaneFrames;
    final int topicFrameEvery;
    final long idleTimeoutMillis;
    final long maxReceiveBytes;

    private BusLimits(Builder b) {
        maxClients = b.maxClients;
        maxServices = b.maxServices;
        maxTopics = b.maxTopics;
        maxSubscriptionsPerClient = b.maxSubscriptionsPerClient;
        maxSubscriptions = b.maxSubscriptions;
        maxEnvelopeBytes = b.maxEnvelopeBytes;
        maxActiveCallsPerClient = b.maxActiveCallsPerClient;
        maxServiceQueued = b.maxServiceQueued;
        maxServiceInFlight = b.maxServiceInFlight;
        latestMaxInFlight = b.latestMaxInFlight;
        boundedMaxQueued = b.boundedMaxQueued;
        boundedMaxInFlight = b.boundedMaxInFlight;
        maxOwnersPerClient = b.maxOwnersPerClient;
        reservedRpcOwners = b.reservedRpcOwners;
        maxRetainedBytes = b.maxRetainedBytes;
        maxBoundedQueuedBytesPerClient = b.maxBoundedQueuedBytesPerClient;
        controlLaneFrames = b.controlLaneFrames;
        topicFrameEvery = b.topicFrameEvery;
        idleTimeoutMillis = b.idleTimeoutMillis;
        maxReceiveBytes = b.maxReceiveBytes;
    }

    /** The Flybus defaults (64 clients, 256 services, 512 topics, 128/1024 subscriptions, …). */
    public static BusLimits defaults() {
        return builder().build();
    }

    /** A builder starting from the defaults; {@code build()} checks every bound. */
    public static Builder builder() {
        return new Builder();
    }

    public int maxClients() { return maxClients; }
    public int maxServices() { return maxServices; }
    public int maxTopics() { return maxTopics; }
    public int maxSubscriptionsPerClient() { return maxSubscriptionsPerClient; }
    public int maxSubscriptions() { return maxSubscriptions; }
    public int maxEnvelopeBytes() { return maxEnvelopeBytes; }
    /**
     * The largest frame a bus connection carries either way: {@link #maxEnvelopeBytes()} (a whole
     * delivery frame) plus {@link #REQUEST_HEADROOM}. The bus refuses a larger request
     * ({@code INVALID_ENVELOPE}); its links are sized to it ({@code BusClient.linkConfig}).
     */
    public int maxFrameBytes() { return maxEnvelopeBytes + REQUEST_HEADROOM; }
    /**
     * The bytes of received requests the bus keeps waiting, over all connections together (the
     * requests a connection sends while its seal runs; the in-process transport's queue). A
     * request that would pass it is refused ({@code BACKPRESSURE}) and the waiting ones stay.
     */
    public long maxReceiveBytes() { return maxReceiveBytes; }
    public int maxActiveCallsPerClient() { return maxActiveCallsPerClient; }
    public int maxServiceQueued() { return maxServiceQueued; }
    public int maxServiceInFlight() { return maxServiceInFlight; }
    /** A latest subscription's queue is always exactly 1. */
    public int latestMaxQueued() { return 1; }
    public int latestMaxInFlight() { return latestMaxInFlight; }
    public int boundedMaxQueued() { return boundedMaxQueued; }
    public int boundedMaxInFlight() { return boundedMaxInFlight; }
    public int maxOwnersPerClient() { return maxOwnersPerClient; }
    public int reservedRpcOwners() { return reservedRpcOwners; }
    /** Owners available to topic deliveries, allocations and holds: the total less the RPC reserve. */
    public int ordinaryOwners() { return maxOwnersPerClient - reservedRpcOwners; }
    public long maxRetainedBytes() { return maxRetainedBytes; }
    public long maxBoundedQueuedBytesPerClient() { return maxBoundedQueuedBytesPerClient; }
    public int controlLaneFrames() { return controlLaneFrames; }
    /** After this many consecutive control/RPC frames, one topic frame goes first. */
    public int topicFrameEvery() { return topicFrameEvery; }
    /**
     * A connection that sends nothing for this long is closed ({@code connection.closing{IDLE_TIMEOUT}})
     * and its table entry freed; 0: never. Any request counts, {@code bus.ping} included, which a
     * {@code BusClient} sends on its own at a third of this (the hello reply tells it the value).
     */
    public long idleTimeoutMillis() { return idleTimeoutMillis; }

    /** Sets each bound; {@link #build()} validates them together. */
    public static final class Builder {
        private int maxClients = 64;
        private int maxServices = 256;
        private int maxTopics = 512;
        private int maxSubscriptionsPerClient = 128;
        private int maxSubscriptions = 1024;
        private int maxEnvelopeBytes = 65_536;
        private int maxActiveCallsPerClient = 64;
        private int maxServiceQueued = 16;
        private int maxServiceInFlight = 16;
        private int latestMaxInFlight = 2;
        private int boundedMaxQueued = 64;
        private int boundedMaxInFlight = 16;
        private int maxOwnersPerClient = 256;
        private int reservedRpcOwners = 64;
        private long maxRetainedBytes = 128L << 20;
        private long maxBoundedQueuedBytesPerClient = 1L << 20;
        private int controlLaneFrames = 128;
        private int topicFrameEvery = 16;
        private long idleTimeoutMillis = 60_000;
        private long maxReceiveBytes = 16L << 20;

        private Builder() {
        }

        public Builder maxClients(int v) { maxClients = v; return this; }
        public Builder maxServices(int v) { maxServices = v; return this; }
        public Builder maxTopics(int v) { maxTopics = v; return this; }
        public Builder maxSubscriptionsPerClient(int v) { maxSubscriptionsPerClient = v; return this; }
        public Builder maxSubscriptions(int v) { maxSubscriptions = v; return this; }
        public Builder maxEnvelopeBytes(int v) { maxEnvelopeBytes = v; return this; }
        public Builder maxActiveCallsPerClient(int v) { maxActiveCallsPerClient = v; return this; }
        public Builder maxServiceQueued(int v) { maxServiceQueued = v; return this; }
        public Builder maxServiceInFlight(int v) { maxServiceInFlight = v; return this; }
        public Builder latestMaxInFlight(int v) { latestMaxInFlight = v; return this; }
        public Builder boundedMaxQueued(int v) { boundedMaxQueued = v; return this; }
        public Builder boundedMaxInFlight(int v) { boundedMaxInFlight = v; return this; }
        public Builder maxOwnersPerClient(int v) { maxOwnersPerClient = v; return this; }
        public Builder reservedRpcOwners(int v) { reservedRpcOwners = v; return this; }
        public Builder maxRetainedBytes(long v) { maxRetainedBytes = v; return this; }
        public Builder maxBoundedQueuedBytesPerClient(long v) { maxBoundedQueuedBytesPerClient = v; return this; }
        public Builder controlLaneFrames(int v) { controlLaneFrames = v; return this; }
        public Builder topicFrameEvery(int v) { topicFrameEvery = v; return this; }
        public Builder idleTimeoutMillis(long v) { idleTimeoutMillis = v; return this; }
        public Builder maxReceiveBytes(long v) { maxReceiveBytes = v; return this; }

        /**
         * @throws IllegalArgumentException for a count below 1, a queue/credit cap outside
         *     1..65535, an RPC owner reserve that leaves no ordinary owner, an envelope limit
         *     outside 1 KiB..16 MiB less the request headroom, a receive budget below one frame, a
         *     negative byte quota, or an idle timeout outside 0 / 100 ms..1 day
         */
        public BusLimits build() {
            positive("maxClients", maxClients);
            positive("maxServices", maxServices);
            positive("maxTopics", maxTopics);
            positive("maxSubscriptionsPerClient", maxSubscriptionsPerClient);
            positive("maxSubscriptions", maxSubscriptions);
            positive("maxActiveCallsPerClient", maxActiveCallsPerClient);
            positive("controlLaneFrames", controlLaneFrames);
            positive("topicFrameEvery", topicFrameEvery);
            capped("maxServiceQueued", maxServiceQueued);
            capped("maxServiceInFlight", maxServiceInFlight);
            capped("latestMaxInFlight", latestMaxInFlight);
            capped("boundedMaxQueued", boundedMaxQueued);
            capped("boundedMaxInFlight", boundedMaxInFlight);
            positive("maxOwnersPerClient", maxOwnersPerClient);
            if (reservedRpcOwners < 0 || reservedRpcOwners >= maxOwnersPerClient) {
                throw new IllegalArgumentException("reservedRpcOwners must be 0.." + (maxOwnersPerClient - 1));
            }
            if (maxEnvelopeBytes < 1024 || maxEnvelopeBytes > FrameDecoder.MAX_TLV_BYTES - REQUEST_HEADROOM) {
                throw new IllegalArgumentException("maxEnvelopeBytes must be 1024.." + (FrameDecoder.MAX_TLV_BYTES - REQUEST_HEADROOM));
            }
            if (maxReceiveBytes < maxEnvelopeBytes + REQUEST_HEADROOM) {
                throw new IllegalArgumentException("maxReceiveBytes must hold one frame (" + (maxEnvelopeBytes
                        + REQUEST_HEADROOM) + " bytes), got " + maxReceiveBytes);
            }
            if (idleTimeoutMillis != 0 && (idleTimeoutMillis < 100 || idleTimeoutMillis > 86_400_000L)) {
                throw new IllegalArgumentException("idleTimeoutMillis must be 0 (never) or 100..86400000, got "
                        + idleTimeoutMillis);
            }
            if (maxRetainedBytes < 0 || maxBoundedQueuedBytesPerClient < 0) {
                throw new IllegalArgumentException("byte quotas must not be negative");
            }
            return new BusLimits(this);
        }

        private static void positive(String what, int v) {
            if (v < 1) {
                throw new IllegalArgumentException(what + " must be at least 1, got " + v);
            }
        }

        private static void capped(String what, int v) {
            if (v < 1 || v > 65535) {
                throw new IllegalArgumentException(what + " must be 1..65535, got " + v);
            }
        }
    }
}
