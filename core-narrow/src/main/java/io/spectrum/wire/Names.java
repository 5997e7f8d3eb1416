package io.spectrum.wire;

/**
 * The protocol's reserved names and fixed byte spellings, in one place: field names, SETTINGS keys,
 * Spectrum's extension keys (docs/extensions.md), reserved paths and the fixed empty TLVs. Every
 * reader and writer compares against these spellings; no other class spells them. Each is an
 * immutable {@link Spelling}, so no user can change the wire for everyone.
 */
public final class Names {
    // ---- the :field namespace
    /** {@code subscribers}: the {@code :subscribers} field, the vertex's subscriber list. */
    public static final Spelling SUBSCRIBERS = Spelling.ascii("subscribers");
    /** {@code children}: the {@code :children} field, the names of a vertex's child vertices. */
    public static final Spelling CHILDREN = Spelling.ascii("children");
    /** {@code settings}: the {@code :settings} field ({@code :settings.app} is the declaration). */
    public static final Spelling SETTINGS = Spelling.ascii("settings");
    /** {@code acl}: the {@code :acl} field, the vertex's access-control list. */
    public static final Spelling ACL = Spelling.ascii("acl");
    /** {@code schema}: the {@code :schema} field, the vertex's declared shape as a POINT. */
    public static final Spelling SCHEMA = Spelling.ascii("schema");
    /** The owner-declared namespace of {@code :settings}. */
    public static final Spelling APP = Spelling.ascii("app");

    // ---- the vertex declaration, as owner-declared read-only settings.app keys (docs/extensions.md)
    /**
     * Declaration key {@code type}: NAME, the libtracer type the vertex holds ({@code VALUE},
     * {@code NAME}, ...).
     */
    public static final Spelling DECL_TYPE = Spelling.ascii("type");
    /** Declaration key {@code width}: VALUE u8, a VALUE's exact width in bytes (1, 2, 4 or 8). */
    public static final Spelling DECL_WIDTH = Spelling.ascii("width");
    /**
     * Declaration key {@code max_size}: VALUE u32, the largest payload in bytes (types other than
     * VALUE).
     */
    public static final Spelling DECL_MAX_SIZE = Spelling.ascii("max_size");
    /** Declaration key {@code signed}: VALUE u8, 1 for two's complement, 0 for unsigned. */
    public static final Spelling DECL_SIGNED = Spelling.ascii("signed");
    /** Declaration key {@code min}: the inclusive lowest raw value, {@code width} bytes LE. */
    public static final Spelling DECL_MIN = Spelling.ascii("min");
    /** Declaration key {@code max}: the inclusive highest raw value, {@code width} bytes LE. */
    public static final Spelling DECL_MAX = Spelling.ascii("max");
    /** Declaration key {@code unit}: NAME, the UCUM unit ({@code Cel}, {@code %}, ...). */
    public static final Spelling DECL_UNIT = Spelling.ascii("unit");
    /**
     * Declaration key {@code scale}: NAME, decimal text; raw × scale + offset is the value in its
     * unit.
     */
    public static final Spelling DECL_SCALE = Spelling.ascii("scale");
    /** Declaration key {@code offset}: NAME, decimal text added after {@code scale}. */
    public static final Spelling DECL_OFFSET = Spelling.ascii("offset");
    /** Declaration key {@code rights}: VALUE u8, the {@link AccessMask} remote callers get. */
    public static final Spelling DECL_RIGHTS = Spelling.ascii("rights");
    /** Declaration key {@code description}: NAME, free text. */
    public static final Spelling DECL_DESCRIPTION = Spelling.ascii("description");

    // ---- SUBSCRIBER qos keys
    /**
     * SUBSCRIBER qos key {@code delivery_policy}: VALUE u16, the word {@link DeliveryPolicy} reads.
     */
    public static final Spelling DELIVERY_POLICY = Spelling.ascii("delivery_policy");
    /**
     * SUBSCRIBER qos key {@code delivery_compact}: VALUE u8, non-zero opts into ADVERTISE/COMPACT.
     */
    public static final Spelling DELIVERY_COMPACT = Spelling.ascii("delivery_compact");
    /** SUBSCRIBER qos key {@code delivery_scope}: VALUE u8, reserved and not read. */
    public static final Spelling DELIVERY_SCOPE = Spelling.ascii("delivery_scope");

    // ---- Spectrum extensions (docs/extensions.md)
    /** A SUBSCRIBER qos key asking for the node's topic stamp on each delivery. */
    public static final Spelling TOPIC = Spelling.ascii("spectrum.topic");
    /** Stamp pair {@code seq}: VALUE u64, the vertex's publish sequence number. */
    public static final Spelling STAMP_SEQ = Spelling.ascii("seq");
    /** Stamp pair {@code stale}: VALUE u8, 1 when the value is not current. */
    public static final Spelling STAMP_STALE = Spelling.ascii("stale");
    /** Stamp pair {@code op}: VALUE u8, 0 for a publish, 1 for a delete notice. */
    public static final Spelling STAMP_OP = Spelling.ascii("op");
    /** The written vertex's PATH in the stamp, for a subscriber that asked with {@link #TOPIC_WITH_PATH}. */
    public static final Spelling STAMP_PATH = Spelling.ascii("path");
    /**
     * Why the value is stale ({@link StaleReason}), UTF-8 in a VALUE, the stamp's last pair; only with
     * {@code stale} = 1 and only when the node holds a reason (docs/extensions.md "Delivery stamp").
     */
    public static final Spelling STAMP_REASON = Spelling.ascii("reason");
    /**
     * The value's origin time, VALUE u64 LE ms since the Unix epoch: given by the first host that
     * received the value, from its clock, and kept by every node after it (docs/extensions.md
     * "Origin time"); before {@link #STAMP_REASON}, and absent when the node holds none.
     */
    public static final Spelling STAMP_ORIGIN = Spelling.ascii("origin");
    /**
     * The vertex's last publisher, NAME (UTF-8), on a READ's stamped answer only, from a node that
     * names its publishers (a WIDE node: docs/extensions.md "On a READ answer"); before
     * {@link #STAMP_REASON}. Deliveries never carry it.
     */
    public static final Spelling STAMP_PUBLISHER = Spelling.ascii("publisher");
    /** {@code spectrum.topic} VALUE u8 bit 0: stamp seq / stale / op on each delivery. */
    public static final int TOPIC_STAMP = 1;
    /** {@code spectrum.topic} VALUE u8 bit 1: also stamp the written vertex's path (which child changed). */
    public static final int TOPIC_WITH_PATH = 2;
    /**
     * SUBSCRIBER qos keys of the delivery modes ({@link DeliveryMode} reads them; docs/extensions.md
     * "Delivery modes"): VALUE u8 mode (1 latest, 2 bounded), VALUE u16 maxQueued, VALUE u16 maxInFlight.
     */
    public static final Spelling MODE = Spelling.ascii("spectrum.mode");
    /**
     * Delivery-mode qos key {@code spectrum.queue}: VALUE u16, the most values queued for the
     * subscriber.
     */
    public static final Spelling MODE_QUEUE = Spelling.ascii("spectrum.queue");
    /**
     * Delivery-mode qos key {@code spectrum.inflight}: VALUE u16, the most deliveries not yet
     * consumed.
     */
    public static final Spelling MODE_INFLIGHT = Spelling.ascii("spectrum.inflight");
    /** The consumed message's one key: SETTINGS{NAME "spectrum.consumed", VALUE u64 upTo} written to {@code :subscribers[N]}. */
    public static final Spelling CONSUMED = Spelling.ascii("spectrum.consumed");
    /** The consumed answer's one key: SETTINGS{NAME "spectrum.delivered", VALUE u64 lastDelivered}. */
    public static final Spelling DELIVERED = Spelling.ascii("spectrum.delivered");
    /** Stamp pairs of a mode subscriber's delivery, after the others: the edge's delivery number and the values coalesced before it. */
    public static final Spelling STAMP_DLV = Spelling.ascii("dlv");
    /**
     * Stamp pair {@code replaced}: VALUE u64, how many undelivered values were coalesced before
     * this one.
     */
    public static final Spelling STAMP_REPLACED = Spelling.ascii("replaced");
    /** The active/idle notice a publisher asked for with FWD op bit 6 ({@link FwdView#ACTIVITY}). */
    public static final Spelling ACTIVITY = Spelling.ascii("spectrum.activity");
    /** Activity-notice pair {@code path}: the PATH of the vertex whose subscribers changed. */
    public static final Spelling ACTIVITY_PATH = Spelling.ascii("path");
    /** Activity-notice pair {@code subscribers}: VALUE u32, the delivering subscribers now. */
    public static final Spelling ACTIVITY_SUBSCRIBERS = Spelling.ascii("subscribers");
    /**
     * The FIELD level that carries an RFC-0035 §6.1 generation: {@code :subscribers[N]} followed by
     * {@code :spectrum.gen[G]} is {@code :subscribers[N@G]} (FieldView folds it into the level before).
     */
    public static final Spelling GENERATION = Spelling.ascii("spectrum.gen");
    /** {@code $node/caps} keys: the extensions a node speaks. */
    public static final Spelling CORE = Spelling.ascii("core");
    /**
     * {@code $node/caps} key {@code rfc0035}: VALUE u16, the version of the {@code :subscribers}
     * surface spoken.
     */
    public static final Spelling RFC0035 = Spelling.ascii("rfc0035");
    /**
     * {@code $node/caps} key {@code topic}: VALUE u16, the version of the delivery stamp spoken.
     */
    public static final Spelling TOPIC_EXT = Spelling.ascii("topic");
    /**
     * The announcement key carrying the peer's name (NAME, 1..{@link #PEER_NAME_MAX} bytes of UTF-8):
     * a WIDE node knows the caller by it, so a client returning from a new address is the same
     * publisher (docs/extensions.md, "Peer name").
     */
    public static final Spelling PEER_NAME = Spelling.ascii("spectrum.name");
    /**
     * The announcement key of a WRITE that is not retained (VALUE u8 0; 1 or absent: retained):
     * docs/extensions.md, "Announcement key spectrum.retain".
     */
    public static final Spelling RETAIN = Spelling.ascii("spectrum.retain");
    /** The key of a bus message's payload in the SETTINGS value it leaves on its vertex with attachments (docs/bus.md). */
    public static final Spelling MESSAGE_PAYLOAD = Spelling.ascii("payload");
    /** Announcement key of a WRITE that clears the vertex's value (docs/extensions.md, "Announcement key spectrum.clear"). */
    public static final Spelling CLEAR = Spelling.ascii("spectrum.clear");
    /** The longest announced peer name, in bytes; a longer one is no name. */
    public static final int PEER_NAME_MAX = 64;
    /**
     * Backfill (docs/extensions.md "Backfill"): the {@code $node/caps} key of a node that keeps its
     * last values per declared vertex (VALUE u16, how many); the pair in a READ's trailing child that
     * asks for them (VALUE u64, the last sequence the asker holds); the first pair of the answer
     * (VALUE u64, the vertex's sequence now). One spelling, three places: {@link Backfill} writes and
     * reads them all.
     */
    public static final Spelling BACKFILL = Spelling.ascii("spectrum.backfill");
    /** Backfill answer pair {@code evicted}: VALUE u64, the highest sequence the node no longer holds (0: none lost). */
    public static final Spelling BACKFILL_EVICTED = Spelling.ascii("evicted");
    /** Backfill answer pair {@code age}: VALUE u64, ms between the value's publish and the answer, on the node's clock. */
    public static final Spelling BACKFILL_AGE = Spelling.ascii("age");
    /** Backfill answer pair {@code value}: the value TLV as it was published. */
    public static final Spelling BACKFILL_VALUE = Spelling.ascii("value");
    /** {@code $node/caps} key a host adds: a random u32 per process start. */
    public static final Spelling BOOT = Spelling.ascii("spectrum.boot");

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

    // ---- peer and client identities
    /**
     * Prefix of an anonymous identity ({@code anon-<8 hex>-<unix seconds>}, the ABP profile's
     * {@code synth_anon_id}): a node or the host bus names a peer or client that gave no name with it,
     * and no peer may take a name that starts with it.
     */
    public static final String ANONYMOUS_PREFIX = "anon-";

    /** True for an anonymous identity (one starting with {@link #ANONYMOUS_PREFIX}). */
    public static boolean isAnonymous(String id) {
        return id.startsWith(ANONYMOUS_PREFIX);
    }

    // ---- fixed TLVs
    /** The empty STATUS: OK, and the clear sentinel of {@code :subscribers[N]}. */
    public static final Spelling EMPTY_STATUS = Spelling.of((byte) 0x09, (byte) 0x00, (byte) 0x00, (byte) 0x00);
    /** The empty PATH: the src of a request that wants no reply. */
    public static final Spelling EMPTY_PATH = Spelling.of((byte) 0x06, (byte) 0x00, (byte) 0x00, (byte) 0x00);
    /** The empty SETTINGS container. */
    public static final Spelling EMPTY_SETTINGS = Spelling.of((byte) 0x0B, (byte) 0x40, (byte) 0x00, (byte) 0x00);

    private Names() {
    }

}
