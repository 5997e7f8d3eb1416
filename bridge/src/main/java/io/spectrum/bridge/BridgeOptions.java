package io.spectrum.bridge;

import java.util.ArrayList;
import java.util.List;

/**
 * What a bridge publishes and takes (the {@code --mqtt-*} options): the host name in the topics,
 * include / exclude / writable path globs, JSON or raw TLV payloads, Home Assistant discovery, and
 * the bound of the queue that holds state while the broker is away. Fluent setters; read by the
 * bridge once at start.
 */
public final class BridgeOptions {
    /** The default bound of the queue towards the broker (messages). */
    public static final int DEFAULT_QUEUE = 10_000;

    private String host = "host";
    private final List<PathGlob> include = new ArrayList<>();
    private final List<PathGlob> exclude = new ArrayList<>();
    private final List<PathGlob> writable = new ArrayList<>();
    private boolean raw;
    private boolean discovery;
    private int queue = DEFAULT_QUEUE;
    private String clientId;

    /** The host segment of every topic ({@link Topics}). */
    public BridgeOptions host(String name) {
        this.host = name;
        return this;
    }

    /** Publishes only paths some include glob matches (none given: every path). */
    public BridgeOptions include(String glob) {
        include.add(PathGlob.of(glob));
        return this;
    }

    /** Publishes no path an exclude glob matches (wins over include). */
    public BridgeOptions exclude(String glob) {
        exclude.add(PathGlob.of(glob));
        return this;
    }

    /** Takes {@code …/set} writes for paths this glob matches (none given: no writes at all). */
    public BridgeOptions writable(String glob) {
        writable.add(PathGlob.of(glob));
        return this;
    }

    /** Publishes the raw TLV bytes instead of JSON. */
    public BridgeOptions raw(boolean on) {
        this.raw = on;
        return this;
    }

    /** Publishes Home Assistant discovery configs ({@link Discovery}). */
    public BridgeOptions discovery(boolean on) {
        this.discovery = on;
        return this;
    }

    /**
     * The bound of the queue towards the broker; the oldest message is dropped (and counted) past it.
     * Unsent state of a topic is replaced by its newer state rather than queued again ({@link Outbox}),
     * so the bound is reached only with more topics than messages it holds.
     */
    public BridgeOptions queue(int messages) {
        if (messages < 1) {
            throw new IllegalArgumentException("the MQTT queue must hold at least 1 message (was " + messages + ")");
        }
        this.queue = messages;
        return this;
    }

    /** The MQTT client id (default {@code spectrum-<host>-<random>}). */
    public BridgeOptions clientId(String id) {
        this.clientId = id;
        return this;
    }

    /** The host segment of every topic (default {@code host}). */
    public String host() {
        return host;
    }

    /** True when payloads are the raw TLV bytes instead of JSON. */
    public boolean raw() {
        return raw;
    }

    /** True when Home Assistant discovery configs are published. */
    public boolean discovery() {
        return discovery;
    }

    /** The bound of the queue towards the broker, in messages (default {@link #DEFAULT_QUEUE}). */
    public int queue() {
        return queue;
    }

    String clientId() {
        return clientId != null ? clientId : "spectrum-" + host + "-" + Integer.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextInt(0x1000000));
    }

    /** Whether {@code path} is published: not a node-internal {@code /$…} path, included, not excluded. */
    public boolean published(String path) {
        if (path.startsWith("/$") || path.contains("/$")) {
            return false;
        }
        return (include.isEmpty() || PathGlob.any(include, path)) && !PathGlob.any(exclude, path);
    }

    /** Whether a {@code …/set} on {@code path} is honoured (published and named by a writable glob). */
    public boolean writes(String path) {
        return published(path) && PathGlob.any(writable, path);
    }
}
