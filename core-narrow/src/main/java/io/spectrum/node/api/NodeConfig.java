package io.spectrum.node.api;

import io.spectrum.time.Clock;
import io.spectrum.time.SystemClock;

/**
 * Sizes of every pool a node allocates once at start, and its timers. Running out of any of them
 * is a typed refusal, never growth.
 */
public final class NodeConfig {
    /** Vertices (the root counts as one). */
    public int maxVertices = 256;
    /** Subscriber slots shared by all vertices. */
    public int maxSubscribers = 1024;
    /** Bytes of last-known-value storage. */
    public int valueBytes = 64 * 1024;
    /** Bytes of subscriber record / return route storage. */
    public int recordBytes = 64 * 1024;
    /** Largest PATH body of a vertex key (a path limit: longer is PATH_INVALID). */
    public int maxKeyBytes = 64;
    /** Size of the node's transmit scratch buffer (largest frame it builds). */
    public int frameBytes = 4096;
    /** TLVs per decoded frame. */
    public int maxTlvsPerFrame = 128;
    /** Pending remote AWAITs. */
    public int maxAwaits = 16;
    /** Bytes kept per pending await for its dst and src routes. */
    public int awaitRouteBytes = 256;
    /** Links that can be attached. */
    public int maxLinks = 8;
    /** Remote subscriptions this node keeps as a client (subscribeRemote), and outstanding remote requests. */
    public int maxRemoteSubscriptions = 16;
    /** Bytes kept per outstanding remote request for its answer. */
    public int remoteResultBytes = 512;
    /** Largest value a publish may carry (whole TLV); above it FLOW_BACKPRESSURE. */
    public int payloadCap = 1024 * 1024;
    /** How long a stale value is kept for its publisher to come back. */
    public long staleGraceNanos = 60_000_000_000L;
    /** AWAIT timeout when the request carries none. */
    public long defaultAwaitTimeoutNanos = 1_000_000_000L;
    /** Frames taken from each link per poll(). */
    public int framesPerPoll = 32;
    public Clock clock = SystemClock.INSTANCE;
    /** Read gate for remote callers; null = allow everyone. */
    public AccessPolicy accessPolicy;

    public NodeConfig maxVertices(int v) {
        maxVertices = v;
        return this;
    }

    public NodeConfig maxSubscribers(int v) {
        maxSubscribers = v;
        return this;
    }

    public NodeConfig valueBytes(int v) {
        valueBytes = v;
        return this;
    }

    public NodeConfig recordBytes(int v) {
        recordBytes = v;
        return this;
    }

    public NodeConfig maxAwaits(int v) {
        maxAwaits = v;
        return this;
    }

    public NodeConfig payloadCap(int v) {
        payloadCap = v;
        return this;
    }

    public NodeConfig staleGraceNanos(long v) {
        staleGraceNanos = v;
        return this;
    }

    public NodeConfig clock(Clock c) {
        clock = c;
        return this;
    }

    public NodeConfig accessPolicy(AccessPolicy p) {
        accessPolicy = p;
        return this;
    }
}
