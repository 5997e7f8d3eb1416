package io.spectrum.node.fwd;

import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexSchema;

/**
 * What a node core hands the shared FWD side ({@link FwdServer}: the terminus, the
 * {@code :subscribers} surface, {@code :children}, {@code :settings}, the composed READ, awaits,
 * deliveries, the remote client): its vertices and subscriber slots by int handle. NarrowNode
 * answers from its fixed tables (handles are table rows), WideNode from its growing ones (handles are
 * ids of its vertex and edge objects). Every rule of the FWD surface lives on the shared side; a core
 * only stores and finds. Single-threaded, like the node; no call allocates on a NARROW core.
 *
 * <p>A slot's {@link #word} is the live delivery_policy in its low 16 bits plus the bits below.
 * Quantities follow the node API's return convention ({@code >= 0} or a negated WireError code).
 */
public interface FwdStore {
    /** No vertex / no slot. */
    int NONE = -1;

    /** The live delivery_policy part of a slot word. */
    int POLICY_MASK = 0xFFFF;
    /** Set in the word of every slot that holds a subscriber (a free slot's word is 0). */
    int IN_USE = 1 << 16;
    /** An in-process callback edge: no record (listed as a hole). */
    int KIND_CALLBACK = 1 << 17;
    /** A remote edge: delivers FWD WRITE over (link, peer) to its stored route. */
    int KIND_ROUTED = 1 << 18;
    /** A local edge from a SUBSCRIBER record: delivers by assigning its local target. */
    int KIND_LOCAL = 1 << 19;
    /** The stored record carries a delivery_policy pair (rendering rule 1). */
    int HAS_POLICY = 1 << 20;
    /** The subscriber asked for the node's topic stamp on each delivery. */
    int STAMP = 1 << 21;
    /** The subscriber asked for the written vertex's path in the stamp. */
    int STAMP_PATH = 1 << 22;
    /**
     * The edge has a delivery mode (latest / bounded, {@link io.spectrum.wire.DeliveryMode}): it takes
     * the consumed message at {@code [N]} and is stamped with its delivery number. Only a core whose
     * {@link #deliveryModes()} is true sets it.
     */
    int MODE = 1 << 23;

    /**
     * Whether a delivering slot with this word is told the moment its vertex is marked stale or
     * purged (docs/extensions.md "Stale and purge notices"; both cores ask this one rule): an
     * in-process callback (its listener takes the stamp with every value), or a routed slot that
     * asked for the stamp ({@link #STAMP}). Never a plain v1 routed slot (it sees plain v1: a stale
     * mark or a purge sends it nothing), a local-target copy, or a one_shot slot (it waits for the
     * next publish, and a notice is not one).
     */
    static boolean takesTopicNotice(int word) {
        if ((word & io.spectrum.wire.DeliveryPolicy.ONE_SHOT) != 0) {
            return false;
        }
        return (word & KIND_CALLBACK) != 0 || (word & (KIND_ROUTED | STAMP)) == (KIND_ROUTED | STAMP);
    }

    // ------------------------------------------------------------------ vertices

    /** The vertex of a canonical PATH body, or NONE. */
    int find(byte[] b, int off, int len);

    /** Finds or creates (mkdir -p) the vertex of a PATH body (the owner's write). Quantity. */
    int resolveOrCreate(byte[] b, int off, int len);

    /**
     * The mkdir -p of a subscription append under a mount by remote caller (link, peer), a host
     * serving subscriptions there ({@code NodeConfig#serveSubscriptionsUnderMounts}). A core that
     * can take vertices away again (WideNode) counts the ones it creates against the caller's share
     * ({@code NodeConfig#verticesPerPeer}, over it: FLOW_BACKPRESSURE) and removes them once they hold
     * nothing (docs/node.md, "Vertices a subscription created"); a core that cannot creates them as
     * {@link #resolveOrCreate} does. Quantity.
     */
    default int createForSubscription(byte[] b, int off, int len, int link, int peer) {
        return resolveOrCreate(b, off, len);
    }

    /**
     * Clears vertex v's value as the owner's {@code Node.clear} does (drops it; with {@code notify}
     * spends a fresh sequence number and sends the delete notice), for a remote WRITE that asked to
     * (docs/extensions.md, "Announcement key spectrum.clear"). Status: OK, or FLOW_BACKPRESSURE when a
     * bounded subscriber has no room for the notice (nothing changes).
     */
    int clearValue(int v, boolean notify);

    /**
     * The name of v's last publisher as a READ's stamped answer gives it (UTF-8, kept by the core,
     * never written into), or null: a core that does not name its publishers (NarrowNode, the default)
     * or a vertex nobody published.
     */
    default byte[] publisherName(int v) {
        return null;
    }

    /**
     * Whether a caller that announced Spectrum's extensions subscribes to a vertex that does not
     * exist yet anywhere on this core, not only under a mount: its {@code :subscribers[]} append then
     * creates the path as {@link #createForSubscription} does (a subscriber may come before the first
     * publish; docs/node.md, "Vertices a subscription created"). A core whose remote subscribers never
     * create (NarrowNode, as a libtracer v1 node) answers false, the default.
     */
    default boolean announcedSubscribersCreate() {
        return false;
    }

    /**
     * The mkdir -p of a remote WRITE to an absent vertex from caller (link, peer), which announced
     * Spectrum's extensions and asked for an answer (docs/node.md, "Vertices a write created"). A
     * core whose clients may create vertices (WideNode) makes the path and counts it against the
     * caller's share ({@code NodeConfig#verticesPerPeer}, over it: FLOW_BACKPRESSURE); a core whose
     * remote writes never create (NarrowNode, as a libtracer v1 node) answers PATH_NOT_FOUND, the
     * default. A write refused after this call gives the path back with {@link #discard}. Quantity.
     */
    default int createForWrite(byte[] b, int off, int len, int link, int peer) {
        return io.spectrum.node.api.NodeResult.refusal(io.spectrum.wire.WireError.PATH_NOT_FOUND);
    }

    /**
     * Undoes the mkdir -p of a refused request (a refused request leaves no vertex behind): removes
     * v, then its ancestors, while their keys are longer than {@code keepKeyLen} bytes (the part of
     * the path that existed before the request) and each holds nothing (no value, child, slot,
     * await, declaration, publisher).
     */
    void discard(int v, int keepKeyLen);

    /** The parent of v, NONE for the root (handle 0 is the root on both cores). */
    int parent(int v);

    /** v's first child vertex, or NONE; {@link #nextSibling} walks the rest. */
    int firstChild(int v);

    /** The child vertex after {@code c} under the same parent, or NONE. */
    int nextSibling(int c);

    /** The array holding v's canonical key ({@link #keyOffset}, {@link #keyLen} into it). */
    byte[] keys(int v);

    /** Offset of v's canonical key (its PATH body) in {@link #keys}. */
    int keyOffset(int v);

    /** Bytes of v's canonical key, 0 for the root. */
    int keyLen(int v);

    /** True for a {@code $} vertex (the node's own) or one under it. */
    boolean isReserved(int v);

    /** The owner's declaration (the rights gate), or null. */
    VertexSchema schema(int v);

    /** What {@code :settings.app} answers: the declaration or a reported one, or null. */
    VertexSchema described(int v);

    /** Length of v's stored value TLV, -1 when it holds none. */
    int valLen(int v);

    /**
     * The array holding v's stored value TLV, at {@link #valOff} for {@link #valLen} bytes; owned
     * by the core, read only during the call.
     */
    byte[] valueMemory(int v);

    /**
     * Offset of v's stored value TLV in {@link #valueMemory}; meaningful only when {@link #valLen}
     * is {@code >= 0}.
     */
    int valOff(int v);

    /** v's publish sequence (0 when never published). */
    long seq(int v);

    /** True while v's value is marked stale. */
    boolean stale(int v);

    /** v's value's origin time, ms since the Unix epoch, 0 when it has none (docs/extensions.md "Origin time"). */
    long origin(int v);

    /**
     * Backfill (docs/extensions.md "Backfill"): the highest sequence of v this core no longer keeps
     * for a backfill answer (0: none lost). A core that keeps no values (WideNode) keeps none: v's
     * sequence.
     */
    default long backfillEvicted(int v) {
        return seq(v);
    }

    /**
     * Writes v's kept values above {@code after} as backfill entries ({@link io.spectrum.wire.Backfill#entry})
     * while they fit {@code budget} bytes; returns how many. A core that keeps none writes none.
     */
    default int backfill(int v, long after, long nowNanos, io.spectrum.wire.TlvWriter w, int budget) {
        return 0;
    }

    /** The array holding v's stale reason (UTF-8, {@link #reasonOff}, {@link #reasonLen}; length 0: none). */
    byte[] reasonMemory(int v);

    /** Offset of v's stale reason in {@link #reasonMemory}. */
    int reasonOff(int v);

    /** Bytes of v's stale reason, 0 when it has none. */
    int reasonLen(int v);

    /**
     * A write from (link, peer) = assign + propagate (the awaits of v are answered through
     * {@link FwdServer#answerAwaits}); {@code routeLen > 0}: the publisher asked for activity
     * notices at that route. {@code upstream}: the stamp of a delivery of this node's own remote
     * subscription (the upstream's word on the value, {@link RemoteClient#upstream}), else null: a
     * value stamped stale is stored stale with the upstream's reason (kept until the next value, like
     * {@link #markStale} with {@code kept}) before it fans out, so no subscriber ever sees it as
     * current (docs/host.md, "Freshness"). {@code retain} false: a non-retained publish (docs/node.md,
     * "Retain: false"; the held value stays). Status.
     */
    int publish(int v, byte[] b, int off, int len, int link, int peer, byte[] route, int routeOff, int routeLen,
            io.spectrum.wire.StampView upstream, boolean retain);

    /** Pending awaits on v (a write scans the await table only when there are some). */
    int awaits(int v);

    /**
     * Adds {@code delta} (positive on a new await, negative when one is answered or expires) to v's
     * pending-await count.
     */
    void addAwaits(int v, int delta);

    /** A remote subscription feeding {@code target} has a gap: the target goes stale until its next delivery. */
    void markGap(NodePath target);

    /**
     * A copy's upstream says v is not current: v (holding a value) goes stale with the UTF-8 reason
     * {@code b[off, +len)} (cut at {@link io.spectrum.wire.StaleReason#MAX_BYTES}) until its next
     * delivery, and the edges that take topic notices are told. {@code kept}: never purged by the grace
     * (the upstream's own mark, which it holds); otherwise purged like a departed publisher's values.
     * A vertex already stale takes the new reason only when {@code kept}.
     */
    void markStale(int v, byte[] b, int off, int len, boolean kept);

    // ------------------------------------------------------------------ slots

    /** v's first slot by position, or NONE; {@link #nextSlot} walks the rest in position order. */
    int firstSlot(int v);

    /** The slot after {@code s} on the same vertex in position order, or NONE. */
    int nextSlot(int s);

    /** The slot at position n of v, or NONE. */
    int slotAt(int v, int n);

    /**
     * Slot {@code s}'s position in its vertex's {@code :subscribers} list (the {@code N} of {@code
     * [N]}).
     */
    int pos(int s);

    /**
     * Slot {@code s}'s generation, which moves on each time the slot is re-filled (the {@code G} of
     * {@code [N@G]}).
     */
    int gen(int s);

    /**
     * Slot {@code s}'s word: the live delivery_policy in the low 16 bits plus the kind and flag
     * bits of this interface.
     */
    int word(int s);

    /** The holder: link index ({@link FwdServer#OWNER} for the owner) and peer. */
    int holderLink(int s);

    /** The peer handle of slot {@code s}'s holder on its {@link #holderLink} link. */
    int holderPeer(int s);

    /** The stored record then its route in {@link #recordMemory}; recOff -1 for a record-less slot. */
    byte[] recordMemory(int s);

    /**
     * Offset of slot {@code s}'s stored SUBSCRIBER record in {@link #recordMemory}, or -1 for a
     * record-less (callback) slot.
     */
    int recOff(int s);

    /** Bytes of slot {@code s}'s stored record. */
    int recLen(int s);

    /**
     * Bytes of slot {@code s}'s stored return route, right after its record in {@link
     * #recordMemory}; 0 when it has none.
     */
    int routeLen(int s);

    /** Record-relative offset of the winning delivery_policy word's high byte (bit 9 lives there), or -1. */
    int policyHi(int s);

    /**
     * Every slot (link, peer) holds is reaped, its channel being gone without its link saying so
     * (docs/node.md, "A subscriber's channel gone"): as for the holder's departure, idle notices
     * follow the counts; nothing else of the peer changes (what it published stays as it is).
     */
    void holderGone(int link, int peer);

    /** Reaps a slot (it returns its holder's share through {@link FwdServer#returnSlot}). */
    void removeSlot(int s);

    /** The toggle: bit 9 of the live word plus the delivering counts; nothing is replayed. */
    void setSuspended(int s, boolean suspended);

    /**
     * Stores an admitted SUBSCRIBER: a new slot placed at v's lowest free position, or, with
     * {@code replace >= 0}, that slot re-filled in place (its generation moves on either way). The
     * record {@code b[recStart, +recLen)} and the route {@code b[routeStart, +routeLen)} are copied.
     * {@code target} is the local target vertex of a KIND_LOCAL slot, else NONE. The holder's share
     * is the caller's business. Quantity: the slot, or FLOW_BACKPRESSURE when storage is out.
     */
    int admit(int v, int replace, int word, int link, int peer, byte[] b, int recStart, int recLen,
            int routeStart, int routeLen, int policyHi, int target);

    /** The durability latch: one delivery of v's value to the newly admitted slot s, if it asked. */
    void latch(int s, int v);

    // ------------------------------------------------------------------ delivery modes (WIDE core)

    /**
     * True when this core keeps delivery modes (queues and credits per edge, docs/extensions.md
     * "Delivery modes"). A core that does not (NarrowNode) reads a SUBSCRIBER as a v1 node does:
     * the mode keys are skipped, and a consumed message at {@code [N]} is arm 4's type mismatch.
     */
    default boolean deliveryModes() {
        return false;
    }

    /** Gives the just-admitted slot s (word with {@link #MODE}) its mode, a packed {@link io.spectrum.wire.DeliveryMode}. */
    default void setMode(int s, long mode) {
    }

    /**
     * The consumed message for slot s (a {@link #MODE} slot): returns the credits of every delivery
     * numbered up to {@code upTo} and sends what the returned credits allow. Quantity: the number of
     * the slot's last delivery sent after that (0 before the first; a repeat or a lower number
     * changes nothing and answers it too), or -PATH_INVALID above the last delivered number.
     */
    default long consume(int s, long upTo) {
        return -io.spectrum.wire.WireError.SCHEMA_TYPE_MISMATCH;
    }

    // ------------------------------------------------------------------ peers

    /**
     * Caller (link, peer) announced its name, the UTF-8 NAME body {@code b[off, +len)} (valid, 1..64
     * bytes: {@link io.spectrum.wire.Extensions#announcedName}); called for every request that carries
     * it. A core that knows its callers by name (WideNode) remembers it per (link, peer) until the
     * peer goes down; a NARROW core knows callers by address only and ignores it.
     */
    default void peerNamed(int link, int peer, byte[] b, int off, int len) {
    }
}
