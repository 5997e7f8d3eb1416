package io.spectrum.wire;

/**
 * The protocol's reserved names and fixed byte spellings, in one place: field names, SETTINGS keys,
 * Spectrum's extension keys (docs/extensions.md), reserved paths and the fixed empty TLVs. Every
 * reader and writer compares against these arrays; no other class spells them. The arrays are
 * shared and must never be written.
 */
public final class Names {
    // ---- the :field namespace (digest §5.3)
    public static final byte[] SUBSCRIBERS = ascii("subscribers");
    public static final byte[] CHILDREN = ascii("children");
    public static final byte[] SETTINGS = ascii("settings");
    public static final byte[] ACL = ascii("acl");
    public static final byte[] SCHEMA = ascii("schema");
    /** The owner-declared namespace of {@code :settings} (digest §4.3). */
    public static final byte[] APP = ascii("app");

    // ---- the vertex declaration, as owner-declared read-only settings.app keys (docs/extensions.md)
    public static final byte[] DECL_TYPE = ascii("type");
    public static final byte[] DECL_WIDTH = ascii("width");
    public static final byte[] DECL_MAX_SIZE = ascii("max_size");
    public static final byte[] DECL_SIGNED = ascii("signed");
    public static final byte[] DECL_MIN = ascii("min");
    public static final byte[] DECL_MAX = ascii("max");
    public static final byte[] DECL_UNIT = ascii("unit");
    public static final byte[] DECL_SCALE = ascii("scale");
    public static final byte[] DECL_OFFSET = ascii("offset");
    public static final byte[] DECL_RIGHTS = ascii("rights");
    public static final byte[] DECL_DESCRIPTION = ascii("description");

    // ---- SUBSCRIBER qos keys (digest §4.1)
    public static final byte[] DELIVERY_POLICY = ascii("delivery_policy");
    public static final byte[] DELIVERY_COMPACT = ascii("delivery_compact");
    public static final byte[] DELIVERY_SCOPE = ascii("delivery_scope");

    // ---- Spectrum extensions (docs/extensions.md)
    /** A SUBSCRIBER qos key asking for the node's topic stamp on each delivery. */
    public static final byte[] TOPIC = ascii("spectrum.topic");
    public static final byte[] STAMP_SEQ = ascii("seq");
    public static final byte[] STAMP_STALE = ascii("stale");
    public static final byte[] STAMP_OP = ascii("op");
    /** The written vertex's PATH in the stamp, for a subscriber that asked with {@link #TOPIC_WITH_PATH}. */
    public static final byte[] STAMP_PATH = ascii("path");
    /** {@code spectrum.topic} VALUE u8 bit 0: stamp seq / stale / op on each delivery. */
    public static final int TOPIC_STAMP = 1;
    /** {@code spectrum.topic} VALUE u8 bit 1: also stamp the written vertex's path (which child changed). */
    public static final int TOPIC_WITH_PATH = 2;
    /**
     * SUBSCRIBER qos keys of the delivery modes ({@link DeliveryMode} reads them; docs/extensions.md
     * "Delivery modes"): VALUE u8 mode (1 latest, 2 bounded), VALUE u16 maxQueued, VALUE u16 maxInFlight.
     */
    public static final byte[] MODE = ascii("spectrum.mode");
    public static final byte[] MODE_QUEUE = ascii("spectrum.queue");
    public static final byte[] MODE_INFLIGHT = ascii("spectrum.inflight");
    /** The consumed message's one key: SETTINGS{NAME "spectrum.consumed", VALUE u64 upTo} written to {@code :subscribers[N]}. */
    public static final byte[] CONSUMED = ascii("spectrum.consumed");
    /** The consumed answer's one key: SETTINGS{NAME "spectrum.delivered", VALUE u64 lastDelivered}. */
    public static final byte[] DELIVERED = ascii("spectrum.delivered");
    /** Stamp pairs of a mode subscriber's delivery, after the others: the edge's delivery number and the values coalesced before it. */
    public static final byte[] STAMP_DLV = ascii("dlv");
    public static final byte[] STAMP_REPLACED = ascii("replaced");
    /** The active/idle notice a publisher asked for with FWD op bit 6 ({@link FwdView#ACTIVITY}). */
    public static final byte[] ACTIVITY = ascii("spectrum.activity");
    public static final byte[] ACTIVITY_PATH = ascii("path");
    public static final byte[] ACTIVITY_SUBSCRIBERS = ascii("subscribers");
    /**
     * The FIELD level that carries an RFC-0035 §6.1 generation: {@code :subscribers[N]} followed by
     * {@code :spectrum.gen[G]} is {@code :subscribers[N@G]} (FieldView folds it into the level before).
     */
    public static final byte[] GENERATION = ascii("spectrum.gen");
    /** {@code $node/caps} keys: the extensions a node speaks. */
    public static final byte[] CORE = ascii("core");
    public static final byte[] RFC0035 = ascii("rfc0035");
    public static final byte[] TOPIC_EXT = ascii("topic");
    /**
     * The announcement key carrying the peer's name (NAME, 1..{@link #PEER_NAME_MAX} bytes of UTF-8):
     * a WIDE node knows the caller by it, so a client returning from a new address is the same
     * publisher (docs/extensions.md, "Peer name").
     */
    public static final byte[] PEER_NAME = ascii("spectrum.name");
    /** The longest announced peer name, in bytes; a longer one is no name. */
    public static final int PEER_NAME_MAX = 64;
    /** {@code $node/caps} key a host adds: a random u32 per process start. */
    public static final byte[] BOOT = ascii("spectrum.boot");

    // ---- reserved paths
    /** The extensions map every node publishes, and the path a liveness probe READs. */
    public static final String CAPS_PATH = "/$node/caps";
    /**
     * The node's overload counters (pools, links, per-peer shares), a SETTINGS tree the owner
     * refreshes on a period; remote peers may READ and subscribe to it, never write it.
     */
    public static final String STATS_PATH = "/$node/stats";
    /** Prefix of the node's remote-request reply endpoints ({@code /$reply/<k>}). */
    public static final String REPLY_PREFIX = "/$reply/";

    // ---- fixed TLVs
    /** The empty STATUS: OK, and the clear sentinel of {@code :subscribers[N]}. */
    public static final byte[] EMPTY_STATUS = {0x09, 0x00, 0x00, 0x00};
    /** The empty PATH: the src of a request that wants no reply. */
    public static final byte[] EMPTY_PATH = {0x06, 0x00, 0x00, 0x00};
    /** The empty SETTINGS container. */
    public static final byte[] EMPTY_SETTINGS = {0x0B, 0x40, 0x00, 0x00};

    private Names() {
    }

    private static byte[] ascii(String s) {
        byte[] b = new byte[s.length()];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) s.charAt(i);
        }
        return b;
    }
}
