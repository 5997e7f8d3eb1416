package io.spectrum.host.abp;

/**
 * One WIDE node on a manual clock and the way ABP connections reach it: in-process
 * ({@link InProcessAbp}) or through the host bus's Unix socket and its node door ({@link SocketAbp}).
 * The owner's operations ({@link #advance}, {@link #ownerWrite}) are the node's own, on its thread.
 */
interface AbpFabric extends AutoCloseable {
    /** The stale grace of the node (60 s). */
    long GRACE = 60_000_000_000L;

    /** What a transport may not reach; a scenario that needs it is skipped there, saying why. */
    enum Feature {
        /** {@code clear(topic, notify)}. */
        CLEAR,
        /** The last publisher of a topic, and the sequence of a topic that holds no value, in {@code list}. */
        LIST_DETAIL,
        /** A value up to the node's 1 MiB payload cap in one publish. */
        PAYLOAD_CAP,
        /** Two open connections under one name. */
        SHARED_NAME,
        /** A subscription to a topic nobody has published yet. */
        SUBSCRIBE_ABSENT
    }

    /** Connects {@code name} (null: anonymous). */
    AbpSession connect(String name);

    /** Advances the node's clock by {@code nanos} and runs its janitor ({@code tick}). */
    void advance(long nanos);

    /** The node's owner writes {@code tlv} to {@code path} (the owner may write {@code $} names). */
    int ownerWrite(String path, byte[] tlv);

    /** Null when this transport reaches {@code f}, else what is missing. */
    String lacks(Feature f);

    @Override
    void close();
}
