package io.spectrum.host.runtime;

import io.spectrum.client.PeerClient;
import io.spectrum.client.Slot;
import io.spectrum.host.view.SlotView;
import io.spectrum.node.ServingNode;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.time.Clock;
import io.spectrum.wide.WideNode;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * The node thread's half of the snapshot: copies what the snapshot shows (each known vertex's
 * value TLV as it is, its declaration, seq, stale mark, origin and subscriber slots; the links'
 * counters; the node's resources) into a reused {@link SnapshotRenderer.Capture}, rendering
 * nothing; the {@link SnapshotRenderer} renders it elsewhere.
 *
 * <p>Threading: node thread only; its buffers and per-capture tables are reused from one capture
 * to the next and never seen by another thread (what the renderer gets is the capture, handed over).
 */
final class SnapshotCapture {
    private static final NodePath ROOT = NodePath.of("/");

    private final ServingNode node;
    private final Clock clock;
    private final PeerClient owner;
    /** The host's known paths, parsed (node thread; shared with the runtime). */
    private final Map<String, NodePath> paths;
    private final BiFunction<String, NodePath, VertexSchema> schema;
    private final Mounts mounts;
    private final byte[] valueBuf = new byte[64 * 1024];

    /**
     * Captures of {@code node}: {@code owner} lists remote subscriber slots, {@code paths} are the
     * vertices shown, {@code schema} gives a parsed path's declaration, {@code mounts} the links' rows.
     */
    SnapshotCapture(ServingNode node, Clock clock, PeerClient owner, Map<String, NodePath> paths,
                    BiFunction<String, NodePath, VertexSchema> schema, Mounts mounts) {
        this.node = node;
        this.clock = clock;
        this.owner = owner;
        this.paths = paths;
        this.schema = schema;
        this.mounts = mounts;
    }

    /** The host's own subscriptions by path, gathered once per capture (node thread). */
    private final Map<NodePath, List<HostRuntime.LocalWatch>> watchesByPath = new HashMap<>();
    /**
     * The vertices that hold subscriber edges now, from one walk of the node's tree per capture (a
     * WIDE node's {@code topics}); only these are listed through {@code :subscribers[]}, which costs
     * a request through the owner door each (with 1,000 vertices, milliseconds). Null: list every one.
     */
    private Set<String> withEdges;
    private final Set<String> withEdgesNow = new HashSet<>();

    /** Copies what the snapshot shows into {@code c} ({@code watches}, {@code shown}: the host's own subscriptions), rendering nothing. */
    void capture(SnapshotRenderer.Capture c, Collection<HostRuntime.LocalWatch> watches, Collection<HostRuntime.LocalWatch> shown) {
        c.atMillis = clock.epochNanos() / 1_000_000L;
        watchesByPath.clear();
        gatherWatches(watches);
        gatherWatches(shown);
        withEdges = null;
        if (node instanceof WideNode w) {
            withEdgesNow.clear();
            for (io.spectrum.wide.TopicInfo t : w.topics(ROOT)) {
                if (t.subscribers() > 0) {
                    withEdgesNow.add(t.path());
                }
            }
            withEdges = withEdgesNow;
        }
        for (Map.Entry<String, NodePath> e : paths.entrySet()) {
            NodePath p = e.getValue();
            SnapshotRenderer.CapturedVertex v = c.next();
            v.path = e.getKey();
            int n = node.read(p, valueBuf, 0, valueBuf.length);
            if (n > 0) {
                if (v.value.length < n) {
                    v.value = new byte[Math.max(n, v.value.length * 2)];
                }
                System.arraycopy(valueBuf, 0, v.value, 0, n);
            }
            v.length = Math.max(n, 0);
            v.schema = schema.apply(e.getKey(), p);
            v.seq = node.sequence(p);
            v.stale = node.isStale(p);
            v.origin = node.origin(p);
            v.reason = node.staleReason(p);
            v.subscribers = subscribers(p);
        }
        c.links = mounts.linkViews();
        c.resources = io.spectrum.host.view.Counters.resources(node.resources());
    }

    private void gatherWatches(Collection<HostRuntime.LocalWatch> ws) {
        for (HostRuntime.LocalWatch w : ws) {
            if (w.sub.isOpen()) {
                watchesByPath.computeIfAbsent(w.path, k -> new ArrayList<>(1)).add(w);
            }
        }
    }

    /** A vertex's subscriber slots: the host's own (with their holder) and the remote peers', by slot. Node thread. */
    private List<SlotView> subscribers(NodePath p) {
        List<HostRuntime.LocalWatch> local = watchesByPath.getOrDefault(p, List.of());
        String text = p.toString();
        if (local.isEmpty() && withEdges != null && !withEdges.contains(text) && !text.contains("/$")) {
            return List.of(); // no edge: no slot to list (the walk leaves $ vertices out: those are listed)
        }
        List<Slot> slots = node.exists(p) ? owner.subscribers(text).slots() : List.of();
        if (local.isEmpty() && slots.isEmpty()) {
            return List.of();
        }
        Map<Integer, HostRuntime.LocalWatch> mine = new HashMap<>();
        for (HostRuntime.LocalWatch w : local) {
            mine.put(w.sub.index(), w);
        }
        List<SlotView> subs = new ArrayList<>();
        for (Slot s : slots) {
            HostRuntime.LocalWatch w = mine.remove(s.index());
            if (w != null) {
                subs.add(new SlotView(s.index(), w.holder, "local callback", w.sub.isSuspended(), w.delivered));
            } else if (!s.isHole()) {
                subs.add(new SlotView(s.index(), "remote peer", s.target().isEmpty() ? "(link route)" : s.target(),
                        s.suspended(), -1));
            }
        }
        for (HostRuntime.LocalWatch w : mine.values()) { // in case the list read could not show them
            subs.add(new SlotView(w.sub.index(), w.holder, "local callback", w.sub.isSuspended(), w.delivered));
        }
        subs.sort((a, b) -> Integer.compare(a.slot(), b.slot()));
        return subs;
    }
}
