package io.spectrum.node.api;

import io.spectrum.link.Link;
import io.spectrum.link.NodeLinkStats;
import io.spectrum.link.PeerListener;
import io.spectrum.stats.BoundedResource;

/**
 * A graph node: vertices addressed by PATH, a last-known value per vertex, read / write / await,
 * subscriptions with the RFC-0035 surface and topic semantics. Single-threaded: every call,
 * including {@link #poll()} and {@link #tick()}, is made from one thread.
 *
 * <p>Return convention (stated once, in the {@code io.spectrum.node.api} package Javadoc): a
 * <em>status</em> is a {@link io.spectrum.wire.WireError} code (OK = 0); a <em>quantity</em> (a
 * length, a handle) is {@code >= 0}, or its refusal as a negated WireError code ({@link NodeResult}).
 *
 * <p>Implemented by the NARROW core ({@code io.spectrum.node.NarrowNode}) and later the WIDE core.
 */
public interface Node extends PeerListener, AutoCloseable {
    /**
     * Local write: assigns the value TLV ({@code tlv[off, off+len)}, one whole TLV) to the vertex,
     * creating it and missing ancestors, then delivers it to the vertex's and its ancestors'
     * delivering subscribers.
     *
     * @return status: OK, or the refusal (PATH_INVALID, FLOW_BACKPRESSURE, FRAME_INVALID for a
     *     buffer that is not one TLV)
     */
    int write(NodePath path, byte[] tlv, int off, int len);

    /**
     * {@link #write(NodePath, byte[], int, int)}, or with {@code retain} false a non-retained publish
     * (docs/node.md, "Retain: false"): it spends the vertex's next sequence number and goes to the
     * current subscribers, but the held value (and the sequence a later subscriber's replay carries)
     * stays the last retained one; with no subscriber it delivers and caches nothing.
     *
     * @return status, as {@link #write(NodePath, byte[], int, int)}
     */
    int write(NodePath path, byte[] tlv, int off, int len, boolean retain);

    /**
     * Declares what the vertex holds and which rights remote callers have ({@link VertexSchema}),
     * creating it and missing ancestors. From then on every write to it, local or remote, must fit
     * the declaration ({@code tr::schema::type_mismatch} otherwise, nothing changed), remote
     * callers are gated by its rights, and it is readable as the vertex's {@code settings.app}
     * keys. Configuration-time: call it before the node serves peers.
     *
     * @return OK; SCHEMA_TYPE_MISMATCH when the vertex already holds a value the declaration
     *     refuses (nothing changes); PATH_INVALID or FLOW_BACKPRESSURE as a write's creation would
     */
    int declare(NodePath path, VertexSchema schema);

    /** The vertex's declaration, or null when it has none or does not exist. */
    VertexSchema declaration(NodePath path);

    /**
     * Publishes another node's declaration of a vertex this node mirrors (a host's copy of a board
     * vertex), so {@code :settings.app} / {@code :schema} readers of the mirror learn what it holds.
     * Unlike {@link #declare} it gates nothing: the mirror keeps being written by that node's
     * deliveries. A vertex's own declaration wins over a reported one; null withdraws it.
     *
     * @return OK, or PATH_NOT_FOUND when the vertex does not exist
     */
    int report(NodePath path, VertexSchema othersDeclaration);

    /**
     * Copies the vertex's value TLV into {@code dst}.
     *
     * @return quantity: bytes copied, or a negated error code (PATH_NOT_FOUND, FLOW_BACKPRESSURE
     *     when dst is too small)
     */
    int read(NodePath path, byte[] dst, int off, int cap);

    /**
     * The composed read as the owner sees it: for a vertex with children,
     * {@code POINT{NAME <leaf segment>, [stored value TLV], POINT{…} per child}} in byte order of
     * the names, recursively, {@code $} children included (the root's NAME is empty); for a vertex
     * without children exactly what {@link #read} answers. {@link #read} itself stays the vertex's
     * own value, so callers that show or parse one value are unaffected.
     *
     * @return quantity: bytes written, or a negated error code (PATH_NOT_FOUND for an absent or never-written
     *     childless vertex, FLOW_BACKPRESSURE when dst is too small)
     */
    int readTree(NodePath path, byte[] dst, int off, int cap);

    /**
     * Subscribes a callback to the vertex and its subtree. {@code policy} is the delivery_policy
     * word: bit 5 durability (deliver the current value now), bit 8 one_shot, bit 9 create
     * suspended. A refusal is reported by the returned handle's {@link Subscription#error()}.
     */
    Subscription subscribe(NodePath path, int policy, ValueListener listener);

    /**
     * Drops the retained value. With {@code notify}, spends a fresh sequence number and sends a
     * delete notice to the subscribers, even when no value was held.
     *
     * @return status: OK (an absent vertex is already clear)
     */
    int clear(NodePath path, boolean notify);

    /** The vertex's publish sequence (0 when never published or absent). */
    long sequence(NodePath path);

    /**
     * True while the vertex's value is marked stale: its last publisher has gone and its grace has
     * not run out, a remote subscription feeding it has a gap, or the owner marked it
     * ({@link #markStale}); the next publish clears it.
     */
    boolean isStale(NodePath path);

    /**
     * The origin time of the vertex's value, ms since the Unix epoch: when it entered the fabric, given
     * by the first host that received it (or carried in from upstream), 0 when it has none (no value, or
     * a node that gives no origins: docs/extensions.md "Origin time").
     */
    long origin(NodePath path);

    /**
     * The owner marks the vertex's value stale with {@code reason} (a {@link io.spectrum.wire.StaleReason}
     * constant or a source's own text; held as at most {@link io.spectrum.wire.StaleReason#MAX_BYTES}
     * bytes of UTF-8, cut at a character boundary): the value is kept, and the subscribers that take
     * topic notices are told at once as for any stale mark (the retained value, same sequence, stamp
     * {@code stale} = 1 with the reason). The mark holds until the next publish to the vertex clears it
     * with the reason; no grace purges it. Marking a vertex that is already stale replaces its reason
     * (told again only when the reason changed). Allocation-free on the NARROW core; not a hot path.
     *
     * @return status: OK, or PATH_NOT_FOUND when the vertex does not exist or holds no value
     */
    int markStale(NodePath path, CharSequence reason);

    /**
     * Copies the UTF-8 reason the vertex is stale for into {@code dst}.
     *
     * @return quantity: the bytes copied (0 when the vertex is not stale, absent, or stale without a
     *     reason), or -FLOW_BACKPRESSURE when {@code cap} is too small (never for a cap of
     *     {@link io.spectrum.wire.StaleReason#MAX_BYTES})
     */
    int staleReason(NodePath path, byte[] dst, int off, int cap);

    /** The reason the vertex is stale as text, or null when it is not stale (allocates: not for a NARROW hot path). */
    default String staleReason(NodePath path) {
        if (!isStale(path)) {
            return null;
        }
        byte[] b = new byte[io.spectrum.wire.StaleReason.MAX_BYTES];
        int n = staleReason(path, b, 0, b.length);
        return io.spectrum.wire.Utf8.toString(b, 0, Math.max(n, 0));
    }

    /** Delivering subscribers that see a write of this vertex (own and ancestors'). */
    int listenerCount(NodePath path);

    /**
     * Sets the one listener told when the delivering subscribers of a vertex this node's host last
     * published go from 0 to more or back to 0 ({@code null} removes it). Called on the node's
     * thread.
     */
    void setActivityListener(ActivityListener listener);

    /**
     * Attaches a link: the node polls it, answers its requests and hears its peers come and go.
     *
     * @return status: OK, or FLOW_BACKPRESSURE when the link table is full
     */
    int attach(Link link);

    /**
     * Mounts a single-peer link (a dialed peer, a serial line) under {@code name}, one PATH segment:
     * a FWD request whose dst begins with {@code /name} is forwarded to (link, peer) with the name
     * stripped, and frames from (link, peer) grow their src by {@code /name} when forwarded
     * (docs/routing.md). The link must be attached.
     *
     * @return status: OK, PATH_INVALID (not a segment), PATH_IN_USE (name mounted), FLOW_BACKPRESSURE
     *     (mount table full), TRANSPORT_DOWN (link not attached)
     */
    int mount(String name, Link link, int peer);

    /**
     * Mounts a multi-peer listener link under {@code name}: each peer's frames grow src by
     * {@code /name/<peer>-<generation>}, and replies come back by that run. Status as {@link #mount}.
     */
    int mountListener(String name, Link link);

    /**
     * Answers {@code :children[]} of exactly {@code /name}, a single-peer mount, from this node's
     * own vertices under {@code /name} instead of forwarding it: for a peer whose root cannot be
     * listed, the owner creates those vertices from the peer's known top-level names.
     *
     * @return status: OK, or PATH_NOT_FOUND when no single-peer mount has that name
     */
    int listMountHere(String name);

    /** Removes a mount (and a listener's peer routes): OK or PATH_NOT_FOUND. */
    int unmount(String name);

    /** Reads pending frames from every attached link and handles them. Returns frames handled. */
    int poll();

    /**
     * Runs timers: await timeouts, stale purges, and the resend of the current value to subscriber
     * edges a dropped delivery left dirty, once their holder's delivery share refilled (docs/node.md,
     * "Dirty edges").
     */
    void tick();

    /**
     * Subscribes to {@code remotePath} on (link, peer): sends the append and keeps a record that is
     * re-sent when the peer comes back up. Deliveries land as plain writes on {@code localTarget}.
     *
     * @return quantity: a client-table handle (>= 0) or a negated error code
     */
    int subscribeRemote(Link link, int peer, NodePath remotePath, NodePath localTarget, int policy);

    /** Every pool and table, in the BoundedResource vocabulary. */
    BoundedResource[] resources();

    /**
     * What the node counted about an attached link (frames it rejected, share refusals, deliveries
     * it dropped), read-only; null when {@code link} is not attached. The link's own counters are
     * {@link Link#stats()}.
     */
    NodeLinkStats linkStats(Link link);

    @Override
    void close();
}
