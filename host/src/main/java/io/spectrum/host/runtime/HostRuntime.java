package io.spectrum.host.runtime;

import io.spectrum.client.OwnerTransport;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Slot;
import io.spectrum.client.ValueFormat;
import io.spectrum.client.ValueText;
import io.spectrum.runtime.NodeLoop;
import io.spectrum.host.view.HostModel;
import io.spectrum.host.view.HostSnapshot;
import io.spectrum.host.view.LinkView;
import io.spectrum.host.view.SubscriberView;
import io.spectrum.host.view.VertexControl;
import io.spectrum.host.view.VertexHistory;
import io.spectrum.host.view.VertexView;
import io.spectrum.host.view.WriteOutcome;
import io.spectrum.link.Link;
import io.spectrum.link.LinkStats;
import io.spectrum.link.PeerListener;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.RemoteClient;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.node.api.VertexValue;
import io.spectrum.wire.WireError;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Runs a host node on its own thread and presents it as a {@link HostModel}.
 *
 * <p>The node is single-threaded, so exactly one thread touches it: the runtime's {@link NodeLoop}
 * (links, node timers, liveness probe, submitted tasks), whose periodic step rebuilds an
 * immutable {@link HostSnapshot} every refresh period. Other threads (HTTP, terminal) read the latest snapshot through a
 * volatile field and send actions as tasks whose result they wait for; nobody holds a lock while
 * doing I/O.
 *
 * <p>Subscribers shown per vertex: the host's own local subscriptions ({@link #watch}) with their
 * holder name, and the slots remote peers appended, read through the node's {@code :subscribers[]}
 * surface (the one client, {@link PeerClient}, through the node's owner door: {@link OwnerTransport}). Suspend / resume / clear go to the {@link Subscription} handle for
 * the host's own slots and through {@code :subscribers[N]} for remote ones.
 */
public final class HostRuntime implements HostModel, AutoCloseable {
    /**
     * The node configuration of a host: its mirrored board values live under undeclared paths of
     * its own and arrive as remote writes (deliveries), so remote writes to undeclared vertices are
     * allowed here; a board's own declarations still gate writes on the board.
     */
    public static final NodeConfig MIRROR_CONFIG = NodeConfig.builder().remoteWritesToUndeclared(true).build();

    /** A value delivered to a {@link #watch} subscription (copied off the node thread's buffers). */
    public record Delivery(String path, ValueText value, long seq, boolean stale) { }

    private static final long REFRESH_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final String name;
    private final NarrowNode node;
    /** The owner door answers synchronously; this only bounds a node that does not. */
    private static final java.time.Duration OWNER_TIMEOUT = java.time.Duration.ofMillis(100);

    private final PeerClient owner;
    private final NodeLoop loop;
    private final MirrorDeclarations declarations;
    private final List<LinkEntry> links = new ArrayList<>();
    private final List<LocalWatch> watches = new ArrayList<>();
    private final Map<String, NodePath> paths = new TreeMap<>();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final byte[] valueBuf = new byte[64 * 1024];
    private final VertexHistory history = new VertexHistory();
    /** The seq of each vertex's last recorded history sample (node thread). */
    private final Map<String, Long> recordedSeq = new HashMap<>();
    /** The unit each vertex's history is in (node thread). */
    private final Map<String, String> recordedUnit = new HashMap<>();
    private volatile HostSnapshot snapshot;
    private volatile boolean running;
    private boolean dirty = true;
    private long version;
    private long lastRefresh;

    private final class LinkEntry implements PeerListener {
        final Link link;
        final PeerListener node;
        final String board;
        final boolean listener;
        int peersUp;

        LinkEntry(Link link, PeerListener node, String board, boolean listener) {
            this.link = link;
            this.node = node;
            this.board = board;
            this.listener = listener;
        }

        @Override
        public void onPeerUp(Link l, int peer) {
            peersUp++;
            node.onPeerUp(l, peer);
        }

        @Override
        public void onPeerDown(Link l, int peer) {
            peersUp = Math.max(0, peersUp - 1);
            declarations.peerDown(l, peer); // a board that comes back may declare anew
            dirty = true;
            node.onPeerDown(l, peer);
        }
    }

    private static final class LocalWatch {
        final NodePath path;
        final String holder;
        Subscription sub;
        long delivered;

        LocalWatch(NodePath path, String holder) {
            this.path = path;
            this.holder = holder;
        }
    }

    public HostRuntime(String name, NarrowNode node) {
        this.name = name;
        this.node = node;
        this.owner = new PeerClient(new OwnerTransport(node), OWNER_TIMEOUT, "/$host/r/");
        this.declarations = new MirrorDeclarations(node);
        this.loop = new NodeLoop("host " + name, node, this::step);
        this.snapshot = new HostSnapshot(name, 0, List.of(), List.of());
        // learn every vertex that gets a value: one subtree subscription at the root
        Subscription root = node.subscribe(NodePath.of("/"), 0, (s, v, seq, stale) -> learn(v));
        if (root.error() != WireError.OK) {
            throw new IllegalStateException("the host node refused its root subscription: " + WireError.identity(root.error()));
        }
    }

    public String name() {
        return name;
    }

    /** The node; touch it only on the node thread ({@link #onNodeThread}). */
    public NarrowNode node() {
        return node;
    }

    /** Attaches a link to the node; call before {@link #start()} or from a task. */
    public void attach(Link link) {
        attach(link, "", false);
    }

    /** Attaches the link a board is reached over; the links panel names it by the board. */
    public void attachBoard(Link link, String board) {
        attach(link, board, false);
    }

    /** Attaches a link clients connect to; with no client it shows "listening", not "down". */
    public void attachListener(Link link) {
        attach(link, "", true);
    }

    private void attach(Link link, String board, boolean listener) {
        onNodeThread(() -> {
            loop.attach(link);        // node, liveness probe (a READ of /$node/caps), wake-on-input
            LinkEntry e = new LinkEntry(link, node, board, listener);
            link.setPeerListener(e); // count peers for the link view, then let the node handle it
            links.add(e);
            dirty = true;
            return null;
        });
    }

    /**
     * Subscribes {@code remotePath} on (link, peer) and lands its deliveries on {@code localTarget};
     * the node re-subscribes by itself when the peer comes back. The remote vertex's declaration is
     * read too ({@link MirrorDeclarations}), so the mirror's values show with their unit. Returns a
     * handle or a negated code.
     */
    public int subscribeRemote(Link link, int peer, String remotePath, String localTarget, int policy) {
        return onNodeThread(() -> {
            NodePath target = NodePath.of(localTarget);
            paths.putIfAbsent(localTarget, target);
            declarations.mirror(link, peer, remotePath, localTarget);
            dirty = true;
            return node.subscribeRemote(link, peer, NodePath.of(remotePath), target, policy);
        });
    }

    /**
     * A local subscription to {@code path} and its subtree, shown on the dashboard under
     * {@code holder}; {@code consumer} runs on the node thread and must not block.
     */
    public void watch(String path, String holder, Consumer<Delivery> consumer) {
        onNodeThread(() -> {
            LocalWatch w = new LocalWatch(NodePath.of(path), holder);
            w.sub = node.subscribe(w.path, 0, (s, v, seq, stale) -> {
                w.delivered++;
                consumer.accept(new Delivery(v.path(), ValueFormat.render(v.copy(), 0, v.length(), schema(v.path())), seq, stale));
            });
            if (w.sub.error() != WireError.OK) {
                throw new IllegalStateException("cannot watch " + path + ": " + WireError.identity(w.sub.error()));
            }
            watches.add(w);
            paths.putIfAbsent(path, w.path);
            dirty = true;
            return null;
        });
    }

    /** A local write (creates the path). Returns a WireError code. */
    public int write(String path, byte[] tlv) {
        return onNodeThread(() -> node.write(NodePath.of(path), tlv, 0, tlv.length));
    }

    /** Runs {@code task} on the node thread and returns its result (directly when not started). */
    public <T> T onNodeThread(Callable<T> task) {
        if (!running || loop.isNodeThread()) {
            try {
                return task.call();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        CompletableFuture<T> f = new CompletableFuture<>();
        loop.submit(() -> {
            try {
                f.complete(task.call());
            } catch (Throwable t) {
                f.completeExceptionally(t);
            }
        });
        try {
            return f.get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for the node thread");
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            throw c instanceof RuntimeException r ? r : new IllegalStateException(c);
        } catch (TimeoutException e) {
            throw new IllegalStateException("the node thread did not answer within 10 s");
        }
    }

    public void start() {
        refresh();
        running = true;
        loop.start();
    }

    /**
     * The declaration a vertex of this host renders by: the board's, read for a mirror, or the
     * host node's own. Node thread.
     */
    private VertexSchema schema(String path) {
        VertexSchema s = declarations.schema(path);
        if (s != null) {
            return s;
        }
        try {
            return node.declaration(NodePath.of(path));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The declaration shown for {@code path} (a mirrored board vertex's or the host's own), or null. */
    public VertexSchema declaration(String path) {
        return onNodeThread(() -> schema(path));
    }

    /** The loop's periodic step: reads mirrors' declarations, rebuilds the snapshot every refresh period. */
    private long step(long now) {
        if (declarations.poll(now)) {
            dirty = true;
        }
        if (now - lastRefresh >= REFRESH_NANOS) {
            refresh();
        }
        return lastRefresh + REFRESH_NANOS;
    }

    private void learn(VertexValue v) {
        String p = v.path();
        if (!paths.containsKey(p) && !p.startsWith("/$")) {
            NodePath np = v.nodePath();
            if (np != null) {
                paths.put(p, np);
            }
        }
        dirty = true;
    }

    /** Rebuilds the snapshot on the node thread; tells listeners when something changed. */
    private void refresh() {
        lastRefresh = System.nanoTime();
        HostSnapshot next = build();
        HostSnapshot prev = snapshot;
        if (!dirty && sameContent(prev, next)) {
            return;
        }
        dirty = false;
        snapshot = new HostSnapshot(name, ++version, next.vertices(), next.links());
        for (Runnable l : listeners) {
            l.run();
        }
    }

    private static boolean sameContent(HostSnapshot a, HostSnapshot b) {
        return a.vertices().equals(b.vertices()) && a.links().equals(b.links());
    }

    private HostSnapshot build() {
        List<VertexView> vertices = new ArrayList<>(paths.size());
        for (Map.Entry<String, NodePath> e : paths.entrySet()) {
            NodePath p = e.getValue();
            int n = node.read(p, valueBuf, 0, valueBuf.length);
            ValueText value = n > 0 ? ValueFormat.render(valueBuf, 0, n, schema(e.getKey())) : ValueText.NONE;
            List<SubscriberView> subs = new ArrayList<>();
            Map<Integer, LocalWatch> mine = new HashMap<>();
            for (LocalWatch w : watches) {
                if (w.path.equals(p) || w.path.toString().equals(e.getKey())) {
                    if (w.sub.isOpen()) {
                        mine.put(w.sub.index(), w);
                    }
                }
            }
            for (Slot s : owner.subscribers(p.toString()).slots()) {
                LocalWatch w = mine.remove(s.index());
                if (w != null) {
                    subs.add(new SubscriberView(s.index(), w.holder, "local callback", w.sub.isSuspended(), w.delivered));
                } else if (!s.isHole()) {
                    subs.add(new SubscriberView(s.index(), "remote peer", s.target().isEmpty() ? "(link route)" : s.target(),
                            s.suspended(), -1));
                }
            }
            for (LocalWatch w : mine.values()) { // in case the list read could not show them
                subs.add(new SubscriberView(w.sub.index(), w.holder, "local callback", w.sub.isSuspended(), w.delivered));
            }
            subs.sort((a, b) -> Integer.compare(a.slot(), b.slot()));
            long seq = node.sequence(p);
            remember(e.getKey(), value, seq);
            vertices.add(new VertexView(e.getKey(), value.text(), value.numeric(), value.number(), value.unit(),
                    seq, node.isStale(p), subs, VertexControl.of(schema(e.getKey()))));
        }
        List<LinkView> lv = new ArrayList<>(links.size());
        for (LinkEntry l : links) {
            lv.add(new LinkView(l.link.name(), l.peersUp > 0, counters(l.link), l.board, l.listener));
        }
        return new HostSnapshot(name, version, vertices, lv);
    }

    /** Adds a numeric vertex's value to its history once per published seq. Node thread. */
    private void remember(String path, ValueText value, long seq) {
        if (!value.numeric()) {
            if (recordedSeq.remove(path) != null) {
                history.forget(path);
            }
            recordedUnit.remove(path);
            return;
        }
        String unit = value.unit();
        if (!unit.equals(recordedUnit.put(path, unit))) {
            // rendered by another declaration now (read after the first values came raw, or the board
            // restarted with another): earlier samples are in another unit, so they go
            history.forget(path);
            recordedSeq.remove(path);
        }
        Long last = recordedSeq.get(path);
        if (last == null || last != seq) {
            recordedSeq.put(path, seq);
            history.record(path, System.currentTimeMillis(), value.number(), seq);
        }
    }

    /**
     * A link's counters for the links panel: traffic, then every drop, refusal and eviction (issue 11:
     * overload is visible), then its peer table in the BoundedResource vocabulary when it has one.
     */
    static Map<String, Long> counters(Link link) {
        Map<String, Long> c = counters(link.stats());
        io.spectrum.stats.BoundedResource peers = link.peers();
        if (peers != null) {
            c.put("peers.capacity", (long) peers.capacity());
            c.put("peers.inUse", (long) peers.inUse());
            c.put("peers.peak", (long) peers.peak());
            c.put("peers.refused", peers.refusals());
        }
        return c;
    }

    static Map<String, Long> counters(LinkStats s) {
        Map<String, Long> c = new LinkedHashMap<>();
        c.put("framesIn", s.framesIn);
        c.put("framesOut", s.framesOut);
        c.put("bytesIn", s.bytesIn);
        c.put("bytesOut", s.bytesOut);
        c.put("droppedCorrupt", s.droppedCorrupt);
        c.put("droppedOversize", s.droppedOversize);
        c.put("droppedInvalid", s.droppedInvalid);
        c.put("sendRefused", s.sendRefused);
        c.put("reconnects", s.reconnects);
        c.put("droppedByOs", s.droppedByOs);
        c.put("peersRefused", s.peersRefused);
        c.put("peersEvicted", s.peersEvicted);
        c.put("shareRefusals", s.shareRefusals);
        c.put("deliveriesDropped", s.deliveriesDropped);
        return c;
    }

    // ------------------------------------------------------------------ HostModel

    @Override
    public HostSnapshot snapshot() {
        return snapshot;
    }

    @Override
    public int suspend(String path, int slot) {
        return action(path, slot, Action.SUSPEND);
    }

    @Override
    public int resume(String path, int slot) {
        return action(path, slot, Action.RESUME);
    }

    @Override
    public int clear(String path, int slot) {
        return action(path, slot, Action.CLEAR);
    }

    @Override
    public VertexHistory history() {
        return history;
    }

    /** How long a board's write answer is awaited. */
    private static final long WRITE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(3);

    @Override
    public WriteOutcome write(String path, String text) {
        NodePath p;
        try {
            p = NodePath.of(path);
        } catch (IllegalArgumentException e) {
            return WriteOutcome.refused(WireError.PATH_INVALID, "'" + path + "' is not a path");
        }
        VertexSchema schema = declaration(p.toString());
        if (schema == null) {
            return WriteOutcome.refused(WireError.ACCESS_DENIED, path + " has no declaration, so it is not writable here");
        }
        if (!schema.allows(io.spectrum.wire.AccessMask.WRITE)) {
            return WriteOutcome.refused(WireError.ACCESS_DENIED, path + " is declared read-only");
        }
        ValueFormat.Parsed parsed = ValueFormat.parse(text == null ? "" : text, schema);
        if (!parsed.ok()) {
            return WriteOutcome.refused(WireError.SCHEMA_TYPE_MISMATCH, parsed.reason());
        }
        byte[] tlv = parsed.tlv();
        int request = onNodeThread(() -> declarations.write(p.toString(), tlv));
        if (request == MirrorDeclarations.NOT_A_MIRROR) { // the host's own vertex
            int code = onNodeThread(() -> node.write(p, tlv, 0, tlv.length));
            return code == WireError.OK ? WriteOutcome.OK
                    : WriteOutcome.refused(code, "write " + path + " refused: " + WireError.identity(code));
        }
        if (request < 0) {
            return WriteOutcome.refused(-request, "write " + path + " not sent: " + WireError.identity(-request));
        }
        return awaitBoard(path, request);
    }

    /** Waits (off the node thread) for the board's answer to a remote write, then frees the request. */
    private WriteOutcome awaitBoard(String path, int request) {
        RemoteClient client = node.remote();
        long deadline = System.nanoTime() + WRITE_TIMEOUT_NANOS;
        boolean answered = false;
        try {
            while (true) {
                int[] done = onNodeThread(() -> client.requestState(request) == RemoteClient.DONE
                        ? new int[] {client.requestError(request)} : null);
                if (done != null) {
                    answered = true;
                    return done[0] == WireError.OK ? WriteOutcome.OK : WriteOutcome.refused(done[0],
                            "the board refused " + path + ": " + WireError.identity(done[0]));
                }
                if (System.nanoTime() > deadline || loop.isNodeThread()) {
                    return WriteOutcome.refused(WireError.FLOW_TIMEOUT, "the board did not answer the write of " + path
                            + " within " + TimeUnit.NANOSECONDS.toSeconds(WRITE_TIMEOUT_NANOS) + " s");
                }
                Thread.sleep(10);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return WriteOutcome.refused(WireError.FLOW_TIMEOUT, "interrupted waiting for the board");
        } finally {
            boolean free = answered;
            onNodeThread(() -> {
                if (free) {
                    client.release(request);
                } else {
                    declarations.abandon(request, System.nanoTime()); // a late answer must not land on the next request
                }
                return null;
            });
        }
    }

    private enum Action { SUSPEND, RESUME, CLEAR }

    private int action(String path, int slot, Action action) {
        NodePath p;
        try {
            p = NodePath.of(path);
        } catch (IllegalArgumentException e) {
            return WireError.PATH_INVALID;
        }
        if (slot < 0 || slot > 65535) {
            return WireError.PATH_INVALID;
        }
        int code = onNodeThread(() -> {
            for (LocalWatch w : watches) {
                if (w.sub.isOpen() && w.sub.index() == slot && Objects.equals(w.path.toString(), p.toString())) {
                    return switch (action) {
                        case SUSPEND -> w.sub.suspend();
                        case RESUME -> w.sub.resume();
                        case CLEAR -> w.sub.close();
                    };
                }
            }
            return switch (action) {
                case SUSPEND -> owner.suspend(p.toString(), slot, -1).code();
                case RESUME -> owner.resume(p.toString(), slot, -1).code();
                case CLEAR -> owner.clear(p.toString(), slot, -1).code();
            };
        });
        if (code == WireError.OK) {
            onNodeThread(() -> {
                dirty = true;
                refresh();
                return null;
            });
        }
        return code;
    }

    @Override
    public Registration onChange(Runnable listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    @Override
    public void close() {
        running = false;
        loop.close(); // stops the node thread, then closes the links and the node
    }
}
