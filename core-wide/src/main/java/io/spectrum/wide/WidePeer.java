package io.spectrum.wide;

import io.spectrum.node.api.ActivityListener;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import io.spectrum.node.api.ValueListener;
import io.spectrum.node.fwd.FwdServer;
import io.spectrum.wire.Bytes;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.agrona.collections.ObjectHashSet;

/**
 * An identified caller of a {@link WideNode} in the same process: the ABP profile's connection.
 * It is known by the name it registered or, without one, by a connection-scoped anonymous identity
 * {@code anon-<8 hex>-<unix seconds>} that the node never hands out twice.
 * Made by {@link WideNode#connect(String)}; single-threaded like its node.
 *
 * <p>What it may do differs from the owner's in-process calls in one way each:
 * <ul>
 *   <li>{@link #publish}: a {@code $} name is the node's own and is refused ({@code
 *       tr::access::denied}, nothing created, no sequence spent) — the rule NarrowNode applies to
 *       remote writers; a declared vertex must grant WRITE in its rights. An undeclared vertex is
 *       created on first publish (ABP topics are implicit).
 *   <li>{@link #subscribe} is idempotent per (peer, vertex, policy without bit 9, listener): a
 *       repeat answers the existing edge, with no second replay and no second active notice (the
 *       RFC-0035 §6.2 duplicate-append rule, ABP's idempotent subscribe). A declared vertex must
 *       grant SUBSCRIBE. {@code $} vertices may be subscribed.
 *   <li>Active / idle notices for the vertices it last published go to its own
 *       {@link #setActivityListener listener}, not to the node's.
 *   <li>{@link #disconnect()} reaps its edges and marks every vertex it last published stale, to be
 *       purged after the grace unless a publisher comes back.
 * </ul>
 */
public final class WidePeer {
    final WideNode node;
    /**
     * Where the shared FWD side knows it: (link index, peer) of a remote caller; the owner is
     * (FwdServer.OWNER, 0); an in-process connection is ({@link #IN_PROCESS}, its number).
     */
    final int link;
    final int peer;
    static final int IN_PROCESS = -3;
    private String identity;
    /** The announced name's UTF-8 bytes (a remote caller that sent {@code spectrum.name}), or null. */
    private byte[] announced;
    /** The identity's UTF-8 bytes once asked for ({@link #identityBytes}), or null; reset with the name. */
    private byte[] identityBytes;
    private final boolean anonymous;
    boolean connected = true;
    ActivityListener activity;
    /** Vertices whose last publisher this peer is. */
    final ObjectHashSet<Vertex> published = new ObjectHashSet<>();
    /** Vertices its subscriptions created that are still only theirs ({@link Vertex#creator}). */
    int created;
    /**
     * Vertices its writes created (docs/node.md, "Vertices a write created"): the node's once made, they
     * count against this peer's share for as long as it is connected.
     */
    int written;
    /** Open edges this peer holds. */
    final ObjectHashSet<Edge> edges = new ObjectHashSet<>();

    WidePeer(WideNode node, String identity, boolean anonymous, int link, int peer) {
        this.node = node;
        this.link = link;
        this.peer = peer;
        this.identity = identity;
        this.anonymous = anonymous;
    }

    /**
     * A remote caller announced {@code name} (UTF-8 {@code b[off, +len)}): it is known by it from now
     * on. Allocates only when the name differs from the one it already announced.
     */
    void name(byte[] b, int off, int len) {
        if (announced != null && Bytes.equals(announced, 0, announced.length, b, off, len)) {
            return;
        }
        announced = Arrays.copyOfRange(b, off, off + len);
        identity = new String(announced, StandardCharsets.UTF_8);
        identityBytes = null;
    }

    /** True when this remote caller announced the name {@code b[off, +len)} (UTF-8) last. */
    boolean announced(byte[] b, int off, int len) {
        return announced != null && Bytes.equals(announced, 0, announced.length, b, off, len);
    }

    /** The name this remote caller announced ({@code spectrum.name}), or null when it announced none. */
    String announcedName() {
        return announced == null ? null : identity;
    }

    /** The registered or announced name, the anonymous identity, or {@code link<id>/<peer>} for an unnamed remote caller. */
    public String identity() {
        return identity;
    }

    /** {@link #identity()} as UTF-8, made once per name (a READ's stamped answer names the last publisher). */
    byte[] identityBytes() {
        byte[] b = identityBytes;
        if (b == null) {
            b = announced != null ? announced : identity.getBytes(StandardCharsets.UTF_8);
            identityBytes = b;
        }
        return b;
    }

    /** True when the peer connected without a name and is known by its {@code anon-…} identity. */
    public boolean isAnonymous() {
        return anonymous;
    }

    /** False once {@link #disconnect()} ran: its edges are reaped and the vertices it last published marked stale. */
    public boolean isConnected() {
        return connected;
    }

    /**
     * Publishes (write = assign + propagate) as this peer.
     *
     * @return status: OK; ACCESS_DENIED for a {@code $} name or a declared vertex without WRITE;
     *     TRANSPORT_DOWN after {@link #disconnect()}; otherwise what the owner's write answers
     */
    public int publish(NodePath path, byte[] tlv, int off, int len) {
        return node.publishAs(this, path, tlv, off, len, true);
    }

    /**
     * {@link #publish(NodePath, byte[], int, int)}, or with {@code retain} false ABP's {@code retain:
     * false}: the publish spends the next sequence number and reaches the current subscribers, but
     * the vertex keeps its last retained value for later subscribers (docs/node.md, "Retain: false").
     */
    public int publish(NodePath path, byte[] tlv, int off, int len, boolean retain) {
        return node.publishAs(this, path, tlv, off, len, retain);
    }

    /** Subscribes as this peer (see the class comment for what differs from the owner's subscribe). */
    public Subscription subscribe(NodePath path, int policy, ValueListener listener) {
        return node.subscribeAs(this, path, policy, listener);
    }

    /**
     * Closes every edge this peer holds on the vertex (ABP's {@code topic.unsubscribe}); OK also
     * when it holds none or the vertex does not exist.
     */
    public int unsubscribe(NodePath path) {
        return node.unsubscribeAs(this, path);
    }

    /** Receives active / idle notices for the vertices this peer last published (null: none). */
    public void setActivityListener(ActivityListener listener) {
        activity = listener;
    }

    /** The connection went: its edges are reaped, what it last published goes stale. Idempotent. */
    public void disconnect() {
        node.disconnect(this);
    }

    @Override
    public String toString() {
        return "WidePeer[" + identity + (connected ? "" : " gone") + "]";
    }
}
