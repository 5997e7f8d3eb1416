package io.spectrum.host.runtime;

import io.spectrum.client.OwnerTransport;
import io.spectrum.client.PeerClient;
import io.spectrum.client.ValueFormat;
import io.spectrum.client.ValueText;
import io.spectrum.host.history.HistoryStore;
import io.spectrum.runtime.NodeLoop;
import io.spectrum.host.view.HostModel;
import io.spectrum.host.view.HostSnapshot;
import io.spectrum.host.view.VertexHistory;
import io.spectrum.host.view.WriteOutcome;
import io.spectrum.link.Link;
import io.spectrum.link.LinkStats;
import io.spectrum.link.NodeLinkStats;
import io.spectrum.node.ServingNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.node.api.VertexValue;
import io.spectrum.stats.CounterNames;
import io.spectrum.time.Clock;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.WireError;
import io.spectrum.wide.WideNode;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs a host node on its own thread and presents it as a {@link HostModel}.
 *
 * <p>A host mounts each board link by name ({@link #mount}): the node's router forwards every
 * request under {@code /name} to the board with the name stripped (reads, writes, awaits,
 * {@code :children}, {@code :settings}, {@code :schema}), and answers subscriptions itself on its
 * own vertex of the whole path ({@code /board1/sensor/temp}, created on demand), fed by one
 * upstream edge per vertex that exists while the vertex has delivering subscribers
 * ({@link Upstream}). Nothing is configured per vertex: what a board has is found by walking it
 * ({@link BoardTree}), and a view subscribes to what it shows ({@link #show}).
 *
 * <p>The node is single-threaded, so exactly one thread touches it: the runtime's {@link NodeLoop}
 * (links, node timers, liveness probe, submitted tasks), whose periodic step copies what the
 * snapshot shows every refresh period, rendering nothing; the runtime's snapshot thread renders the
 * copy into an immutable {@link HostSnapshot} and tells the listeners. Other threads (HTTP, terminal)
 * read the latest snapshot through a volatile field (rendering a copy not rendered yet themselves)
 * and send actions as tasks whose result they wait for; nobody holds a lock while doing I/O.
 *
 * <p>Every timer of the host (the refresh period, the upstream edges' re-send and retry, the walks,
 * the declarations, a board write's answer, the history's timestamps) reads the node's clock
 * ({@link ServingNode#clock()}, {@code NodeConfig.clock}), which also drives the loop's deadlines:
 * on a {@code ManualClock} they move only when the clock is advanced.
 *
 * <p>Subscribers shown per vertex: the host's own local subscriptions ({@link #watch}) with their
 * holder name, and the slots remote peers appended, read through the node's {@code :subscribers[]}
 * surface (the one client, {@link PeerClient}, through the node's owner door: {@link OwnerTransport}). Suspend / resume / clear go to the {@link io.spectrum.node.api.Subscription} handle for
 * the host's own slots and through {@code :subscribers[N]} for remote ones.
 *
 * <p>This class is the facade; each concern lives in a part it holds: {@link NodeThread} (the loop
 * and its lifecycle), {@link Mounts} (links, their peer listeners and the mount table),
 * {@link SnapshotCapture} and {@link SnapshotRenderer} (the snapshot's copy on the node thread and its
 * rendering off it), {@link SlotActions} (slot actions and writes with their waits) and
 * {@link HistoryTap} (the history store's feed and the boards' backfill). The runtime itself keeps
 * the vertices it shows, its own subscriptions and views, and the loop's periodic step.
 */
public final class HostRuntime implements HostModel, AutoCloseable {
    /**
     * The node configuration of a host: subscriptions under a mount are served here (the router
     * flag); the board values they carry live on undeclared vertices of the host and arrive as
     * remote writes (deliveries), so remote writes to undeclared vertices are allowed here (a
     * client's write under a mount is forwarded to the board, whose declarations gate it); tables
     * sized for a few dozen boards and their walks; a value that arrives without an origin time gets
     * the host's clock's ({@code givesOrigins}: a board's clock need not be set, docs/extensions.md
     * "Origin time").
     *
     * <p>Sized for what a host relays (a board with 1,000 vertices bridged whole):
     * <ul>
     * <li>{@code maxTlvsPerFrame} 4,096 and {@code frameBytes} 16 KiB: a board's {@code :children[]}
     *     answer is two TLVs per child, so the default index of 128 TLVs dropped the answer for a
     *     vertex of 60 or more children as undecodable, and the walk never learnt them (the
     *     subscription under the mount then got the subtree on one host vertex);</li>
     * <li>{@code remoteResultBytes} 16 KiB: the answer the host's remote client keeps per request
     *     (about 12 bytes per child name: ~1,300 children);</li>
     * <li>{@code maxRemoteSubscriptions} 2,048: one upstream edge per board leaf that someone
     *     listens to, plus the walk's and the declarations' reads, share this table;</li>
     * <li>{@code peerDeliveriesPerSecond} 100,000 (burst 10,000) instead of the node default of
     *     2,000/s: a host's clients are bounded by its links' per-peer drop-oldest queues
     *     ({@link io.spectrum.wide.link.QueuedLink}, a persistently slow peer disconnected), and a
     *     client of the host (the MQTT bridge of {@code spectrum host --mqtt}) following a board of
     *     1,000 vertices at 10 Hz needs 10,000/s; the rate still caps a runaway peer and is counted
     *     and warned when hit ({@code deliveriesDropped}).</li>
     * </ul>
     * Every ceiling still refuses visibly: a table in the BoundedResource vocabulary, a link counter
     * with its operator warning ({@code OverloadLog}), or the walk's own warning ({@link BoardTree}).
     */
    public static final NodeConfig HOST_CONFIG = NodeConfig.builder().remoteWritesToUndeclared(true)
            .serveSubscriptionsUnderMounts(true).maxMounts(64).maxLinks(72).maxVertices(4096).maxSubscribers(4096)
            .maxKeyBytes(128).maxRemoteSubscriptions(2048).remoteResultBytes(16 * 1024).frameBytes(16 * 1024)
            .maxTlvsPerFrame(4096).peerDeliveriesPerSecond(100_000).peerDeliveryBurst(10_000).givesOrigins(true).build();

    /** A value delivered to a {@link #watch} subscription (copied off the node thread's buffers). */
    public record Delivery(String path, ValueText value, long seq, boolean stale) { }

    private static final long REFRESH_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final String name;
    private final ServingNode node;
    /** The node's clock: the loop's deadlines and every timer here. */
    private final Clock clock;
    /** The owner door answers synchronously; this only bounds a node that does not. */
    private static final java.time.Duration OWNER_TIMEOUT = java.time.Duration.ofMillis(100);

    private final PeerClient owner;
    /** The node thread and its lifecycle. */
    private final NodeThread loop;
    private final Declarations declarations;
    private final Upstream upstream;
    private final BoardTree tree;
    /** The history store's tap and the boards' backfill (docs/host.md "History", "Backfill"). */
    private final HistoryTap historyTap;
    /** The links and the boards' mounts (node thread). */
    private final Mounts mounts;
    private final List<LocalWatch> watches = new ArrayList<>();
    /** What each open view shows (view id -> paths), and the one subscription per shown path. */
    private final Map<String, Set<String>> views = new HashMap<>();
    private final Map<String, LocalWatch> shown = new HashMap<>();
    private final Map<String, NodePath> paths = new TreeMap<>();
    /** Copies what the snapshot shows, on the node thread. */
    private final SnapshotCapture capture;
    /** Slot actions and writes by text, with the wait for a board's answer. */
    private final SlotActions actions;
    /** Renders the captures into snapshots, off the node thread once started. */
    private final SnapshotRenderer renderer;
    private volatile java.util.function.Consumer<String> warnings = line -> System.err.println(line);
    private boolean dirty = true;
    private long lastRefresh;

    /** A subscription of the host's own, with its holder's name and count of deliveries. Node thread. */
    static final class LocalWatch {
        final NodePath path;
        final String holder;
        Subscription sub;
        long delivered;

        LocalWatch(NodePath path, String holder) {
            this.path = path;
            this.holder = holder;
        }
    }

    /**
     * A host named {@code name} over {@code node} (its clock drives the loop); nothing runs until {@link #start()} or
     * a manual loop.
     */
    public HostRuntime(String name, ServingNode node) {
        this.name = name;
        this.node = node;
        this.clock = node.clock();
        this.owner = new PeerClient(new OwnerTransport(node), OWNER_TIMEOUT, "/$host/r/");
        this.declarations = new Declarations(node);
        this.loop = new NodeThread(name, node, this::step, clock);
        this.tree = new BoardTree(node, declarations, 64 * 1024, this::warn);
        this.upstream = new Upstream(node, this::mountOf, tree::leavesUnder, declarations, () -> loop.submit(this::reconcile),
                this::warn);
        this.historyTap = new HistoryTap(node, clock, this::mountOf, paths, this::schema, this::schema, this::warn);
        this.mounts = new Mounts(node, loop, tree, declarations, historyTap.backfill(), () -> dirty = true);
        this.capture = new SnapshotCapture(node, clock, owner, paths, this::schema, mounts);
        this.renderer = new SnapshotRenderer(name, this::warn);
        this.actions = new SlotActions(loop, node, clock, owner, declarations, this::mountOf, this::declaration,
                this::localSlot, () -> {
                    dirty = true;
                    refresh();
                });
        node.setActivityListener(upstream);
    }

    /** The host's name (its node's, the dashboard's title). */
    public String name() {
        return name;
    }

    /**
     * Where the host's operator warnings go (a ceiling hit, a board's listing or upstream
     * subscription refused): one line each, {@code warning: host NAME: …}; stderr by default.
     */
    public void onWarning(java.util.function.Consumer<String> sink) {
        warnings = java.util.Objects.requireNonNull(sink);
    }

    private void warn(String what) {
        warnings.accept("warning: host " + name + ": " + what);
    }

    /** The node's clock, which every timer of the host reads. */
    @Override
    public Clock clock() {
        return clock;
    }

    /** The node; touch it only on the node thread ({@link #onNodeThread}). */
    public ServingNode node() {
        return node;
    }

    /** Attaches a link to the node (not mounted: nothing is routed through it); call before {@link #start()} or from a task. */
    public void attach(Link link) {
        attach(link, "", false);
    }

    /** Mounts the link a board is reached over as {@code /board} ({@link #mount}, no top-level names). */
    public void attachBoard(Link link, String board) {
        mount(link, board, List.of());
    }

    /**
     * Mounts a board's link (peer 0: a dialed UDP peer, a serial line) under {@code /name}: requests
     * under it are forwarded there, subscriptions under it are served here and fed from the board.
     * {@code top} names the board's top-level vertices when its root cannot be listed (the walk
     * starts there). The links panel names the link by the mount.
     *
     * @throws IllegalArgumentException when the node refuses the mount (a bad or taken name, the
     *     mount table full), saying why
     */
    public void mount(Link link, String name, List<String> top) {
        onNodeThread(() -> {
            mounts.mount(link, name, top);
            return null;
        });
    }

    /** The mounts, in the order given. */
    public List<Mount> mounts() {
        return onNodeThread(mounts::mounts);
    }

    /**
     * Attaches a link clients connect to, mounted as a listener so that their requests are routed
     * to the boards (each client's replies find their way back); with no client it shows
     * "listening", not "down".
     */
    public void attachListener(Link link) {
        onNodeThread(() -> {
            mounts.attachListener(link);
            return null;
        });
    }

    /**
     * Makes an attached link a client door checked against {@code access} (null: no longer checked): every
     * request over it is admitted by the grants before it is routed or served (WideNode#restrict,
     * docs/host.md "The grants file"). A host's UDP, TCP and DTLS client listeners are such doors; the links
     * that mount boards never are.
     *
     * @throws IllegalStateException on a node that is not a WideNode (only the host's node checks grants)
     */
    public void restrict(Link link, io.spectrum.wide.PeerAccess access) {
        if (!(node instanceof WideNode w)) {
            throw new IllegalStateException("grants are checked by a WideNode");
        }
        onNodeThread(() -> {
            w.restrict(link, access);
            return null;
        });
    }

    /** The host's node when it is a WIDE node (the bus's topics are its vertices), else null. Node thread only. */
    public WideNode wideNode() {
        return node instanceof WideNode w ? w : null;
    }

    private void attach(Link link, String board, boolean listener) {
        onNodeThread(() -> {
            mounts.attach(link, board, listener);
            return null;
        });
    }

    /** The mount {@code path} lies under, or null. Node thread. */
    private Mount mountOf(String path) {
        return mounts.mountOf(path);
    }

    /**
     * Subscribes {@code remotePath} on (link, peer) and lands its deliveries on {@code localTarget}
     * (a fixed edge, outside the on-demand ones of the mounts); the node re-subscribes by itself
     * when the peer comes back. The remote vertex's declaration is read too, so the target's values
     * show with their unit. Returns a handle or a negated code.
     */
    public int subscribeRemote(Link link, int peer, String remotePath, String localTarget, int policy) {
        return onNodeThread(() -> {
            NodePath target = NodePath.of(localTarget);
            paths.putIfAbsent(localTarget, target);
            declarations.watch(new Mount("", link, peer, List.of()), remotePath, localTarget);
            dirty = true;
            return node.subscribeRemote(link, peer, NodePath.of(remotePath), target, policy);
        });
    }

    /**
     * A local subscription to {@code path} and its subtree, shown on the dashboard under
     * {@code holder}; {@code consumer} runs on the node thread and must not block. Under a mount it
     * makes the host subscribe upstream like any subscriber does.
     */
    public void watch(String path, String holder, Consumer<Delivery> consumer) {
        onNodeThread(() -> {
            LocalWatch w = subscribeLocal(path, holder, DeliveryPolicy.DURABILITY_REQUEST, consumer);
            watches.add(w);
            return null;
        });
    }

    private LocalWatch subscribeLocal(String path, String holder, int policy, Consumer<Delivery> consumer) {
        LocalWatch w = new LocalWatch(NodePath.of(path), holder);
        w.sub = node.subscribe(w.path, policy, (s, v, seq, stale) -> {
            w.delivered++;
            learn(v);
            if (consumer != null) {
                consumer.accept(new Delivery(v.path(), ValueFormat.render(v.copy(), 0, v.length(), schema(v.path())), seq, stale));
            }
        });
        if (w.sub.error() != WireError.OK) {
            throw new IllegalStateException("cannot subscribe to " + path + ": " + WireError.identity(w.sub.error()));
        }
        paths.putIfAbsent(path, w.path);
        dirty = true;
        return w;
    }

    /**
     * What a view (a dashboard page, by an id of its own) shows now: the host holds one subscription
     * per path any view shows (holder "view"), so a board vertex is subscribed upstream while
     * some view shows it and dropped when none does. An empty set (or {@link #hide}) ends the view.
     * Paths that are not paths are ignored.
     */
    @Override
    public void show(String view, Collection<String> pathsShown) {
        Set<String> valid = new TreeSet<>();
        for (String p : pathsShown) {
            try {
                valid.add(NodePath.of(p).toString());
            } catch (IllegalArgumentException e) {
                // not a path: nothing to show
            }
        }
        onNodeThread(() -> {
            if (valid.isEmpty()) {
                views.remove(view);
            } else {
                views.put(view, valid);
            }
            Set<String> union = new HashSet<>();
            views.values().forEach(union::addAll);
            for (var it = shown.entrySet().iterator(); it.hasNext(); ) {
                var e = it.next();
                if (!union.contains(e.getKey())) {
                    e.getValue().sub.close();
                    it.remove();
                    dirty = true;
                }
            }
            for (String p : union) {
                LocalWatch w = shown.get(p);
                if (w == null || !w.sub.isOpen()) { // new, or cleared from a view: shown again, so subscribed again
                    shown.put(p, subscribeLocal(p, "view", DeliveryPolicy.DURABILITY_REQUEST, null));
                }
            }
            return null;
        });
    }

    /**
     * What the walks found on the boards: host paths ({@code /board1/temp}) to "leaf" (a
     * vertex without children, where a value is shown), in path order.
     */
    public Map<String, Boolean> boardVertices() {
        return onNodeThread(tree::vertices);
    }

    /**
     * Makes {@code view} show every leaf the walks found on the boards (the demo's terminal, the metrics
     * listener): the host then holds each board value, subscribed upstream. Call it again as the walks
     * find more. Waits for the node thread.
     */
    public void showBoards(String view) {
        List<String> leaves = new ArrayList<>();
        boardVertices().forEach((path, leaf) -> {
            if (leaf) {
                leaves.add(path);
            }
        });
        show(view, leaves);
    }

    /** Ends a view: what only it showed is no longer subscribed. */
    public void hide(String view) {
        show(view, List.of());
    }

    /** The host paths fed by an upstream edge now, with the board's refusal code (0: none). Tests and views. */
    public Map<String, Integer> upstreamEdges() {
        return onNodeThread(() -> {
            Map<String, Integer> m = new TreeMap<>();
            for (Upstream.Edge e : upstream.edges()) {
                m.put(e.local, e.refusal);
            }
            return m;
        });
    }

    /** A local write (creates the path). Returns a WireError code. */
    public int write(String path, byte[] tlv) {
        return onNodeThread(() -> {
            NodePath p = NodePath.of(path);
            int code = node.write(p, tlv, 0, tlv.length);
            if (code == WireError.OK && !path.startsWith("/$") && paths.putIfAbsent(p.toString(), p) == null) {
                dirty = true;
            }
            return code;
        });
    }

    /** Runs {@code task} on the node thread and returns its result (directly when not started). */
    public <T> T onNodeThread(Callable<T> task) {
        return loop.call(task);
    }

    /** Whether the calling thread is the node thread. Any thread. */
    public boolean isNodeThread() {
        return loop.isNodeThread();
    }

    /**
     * Runs {@code turn} on the node thread once per duty cycle from now on (the host's bus: docs/bus.md,
     * "Identity, transports and the loop"); with {@code polled} the loop wakes at least every
     * millisecond for it. Its input wakes the loop through {@link #readiness()}. Any thread.
     */
    public void share(java.util.function.IntSupplier turn, boolean polled) {
        onNodeThread(() -> {
            loop.agent().share(turn, polled);
            return null;
        });
    }

    /** Stops running {@code turn}. Any thread. */
    public void unshare(java.util.function.IntSupplier turn) {
        onNodeThread(() -> {
            loop.agent().unshare(turn);
            return null;
        });
    }

    /** How work that shares the node thread wakes it (channels to watch, a wake from any thread). */
    public io.spectrum.link.Readiness readiness() {
        return loop.agent().readiness();
    }

    /** Starts the snapshot's renderer, takes a first snapshot and starts the node thread; call once. */
    public void start() {
        renderer.start();
        refresh();
        loop.start();
    }

    /**
     * Instead of {@link #start()}: the host's loop runs on the caller's thread, one duty cycle (links,
     * the periodic step, the node's timers, queued tasks) per call of the returned supplier, which
     * returns the work done. With a {@code ManualClock} in the node's configuration a test advances
     * the clock and runs a cycle: the host's timers fire exactly then, with no thread and no sleep.
     */
    public java.util.function.IntSupplier startOnCallerThread() {
        refresh();
        return loop.onCallerThread();
    }

    /**
     * The declaration a vertex of this host renders by: the board's, read for a vertex under a mount, or the
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

    /** {@link #schema(String)} of a path already parsed. Node thread. */
    private VertexSchema schema(String path, NodePath parsed) {
        VertexSchema s = declarations.schema(path);
        return s != null ? s : node.declaration(parsed);
    }

    /**
     * The host's copies of its boards' declarations, by host path ({@code /board1/temp}), for a
     * client of this host in its own process (the MQTT bridge), so that it renders a board vertex's
     * values by the same declaration the host's own views do rather than keeping a second copy: the
     * board's, read by the host, and kept while the board is away (its last values stay, stale); null
     * for a path the host holds no board declaration of. Safe to call from any thread.
     */
    public java.util.function.Function<String, VertexSchema> boardDeclarations() {
        return declarations::copy;
    }

    /** The declaration shown for {@code path} (a board vertex's under a mount, or the host's own), or null. */
    public VertexSchema declaration(String path) {
        return onNodeThread(() -> schema(path));
    }

    /**
     * The loop's periodic step: keeps the upstream edges, reads board declarations, walks the boards,
     * rebuilds the snapshot every refresh period.
     */
    private long step(long now) {
        if (upstream.reconcile(now) | declarations.poll(now) | historyTap.backfill().poll(now)) {
            dirty = true;
        }
        if (tree.poll(now)) {
            upstream.treeChanged(); // an active vertex may have other leaves now
            for (Map.Entry<String, Boolean> v : tree.vertices().entrySet()) {
                if (v.getValue()) { // a leaf: a value a view shows
                    paths.computeIfAbsent(v.getKey(), NodePath::of);
                }
            }
            dirty = true;
        }
        if (now - lastRefresh >= REFRESH_NANOS) {
            refresh();
        }
        historyTap.maintain(now);
        return lastRefresh + REFRESH_NANOS;
    }

    private void reconcile() {
        if (upstream.reconcile(clock.nanoTime())) {
            dirty = true;
        }
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

    /**
     * Every refresh period, on the node thread: copies what the snapshot needs (each vertex's value
     * TLV as it is, its declaration, seq, stale mark and origin, its subscribers; the links' counters)
     * into a reused capture and hands it to the {@link SnapshotRenderer}, which makes the {@link HostSnapshot}
     * of it. Rendering every value (with 1,000 vertices, tens of ms) is then off the
     * node thread. A capture not rendered yet when the next is taken is replaced by it (its changes
     * carried over): the renderer always renders the latest.
     */
    private void refresh() {
        lastRefresh = clock.nanoTime();
        SnapshotRenderer.Capture c = renderer.spare();
        capture.capture(c, watches, shown.values());
        boolean changed = dirty;
        dirty = false;
        renderer.handOver(c, changed);
    }

    /**
     * A link's counters for the links panel: traffic, then every drop, refusal and eviction (so
     * overload is visible), then what the node counted about the link ({@code nodeStats}, null: the
     * link is not attached), then its peer table in the BoundedResource vocabulary when it has one.
     * The names are {@link CounterNames}', as {@code /$node/stats} and {@code /metrics} name them.
     */
    static Map<String, Long> counters(Link link, NodeLinkStats nodeStats) {
        LinkStats s = link.stats();
        Map<String, Long> c = new LinkedHashMap<>();
        c.put(CounterNames.FRAMES_IN, s.framesIn());
        c.put(CounterNames.FRAMES_OUT, s.framesOut());
        c.put(CounterNames.BYTES_IN, s.bytesIn());
        c.put(CounterNames.BYTES_OUT, s.bytesOut());
        c.put(CounterNames.DROPPED_CORRUPT, s.droppedCorrupt());
        c.put(CounterNames.DROPPED_OVERSIZE, s.droppedOversize());
        c.put(CounterNames.DROPPED_INVALID, s.droppedInvalid());
        c.put(CounterNames.DROPPED_QUEUED, s.droppedQueued());
        c.put(CounterNames.DROPPED_BY_OS, s.droppedByOs());
        c.put(CounterNames.SEND_REFUSED, s.sendRefused());
        c.put(CounterNames.RECONNECTS, s.reconnects());
        c.put(CounterNames.PEERS_REFUSED, s.peersRefused());
        c.put(CounterNames.PEERS_EVICTED, s.peersEvicted());
        if (nodeStats != null) {
            c.put(CounterNames.FRAMES_REJECTED, nodeStats.framesRejected());
            c.put(CounterNames.SHARE_REFUSED, nodeStats.shareRefused());
            c.put(CounterNames.DELIVERIES_DROPPED, nodeStats.deliveriesDropped());
        }
        io.spectrum.stats.BoundedResource peers = link.peers();
        if (peers != null) {
            io.spectrum.host.view.Counters.resource(c, CounterNames.PEERS, peers);
        }
        return c;
    }

    // ------------------------------------------------------------------ HostModel

    /** The latest snapshot: what the node thread captured before the call, rendered (here if the renderer has not yet). */
    @Override
    public HostSnapshot snapshot() {
        return renderer.snapshot();
    }

    @Override
    public int suspend(String path, int slot) {
        return actions.action(path, slot, SlotActions.Action.SUSPEND);
    }

    @Override
    public int resume(String path, int slot) {
        return actions.action(path, slot, SlotActions.Action.RESUME);
    }

    @Override
    public int clear(String path, int slot) {
        return actions.action(path, slot, SlotActions.Action.CLEAR);
    }

    @Override
    public VertexHistory history() {
        return renderer.history();
    }

    /**
     * Records every value this host's node is given for a vertex the store keeps (a board's
     * delivery to a mounted vertex, a write to a host vertex) and every stale mark, in the store
     * ({@link HistoryStore}; docs/host.md, "History"); the store is closed with the host. The node
     * thread copies the value and queues it; the store's writer renders it by its declaration and
     * writes it, so the node never renders for the history nor waits for the disk. A
     * WIDE node only (the host's). The store's warnings are the host's ({@link #onWarning}). The
     * rows carry this host's name (on a server several hosts share, its {@code host} column). Call
     * before {@link #start()}.
     *
     * @return the store, opened (a file that cannot be opened is a warning, not a failure)
     */
    public HistoryStore record(io.spectrum.host.history.HistorySettings settings) {
        if (!(node instanceof WideNode)) {
            throw new IllegalStateException("the history store taps a WideNode's values");
        }
        HistoryStore h = HistoryStore.open(settings.withHost(name), clock, this::warn); // a shared server's rows say whose
        return onNodeThread(() -> {
            if (!(node instanceof WideNode w)) {
                throw new IllegalStateException("the history store taps a WideNode's values");
            }
            historyTap.attach(w, h);
            return h;
        });
    }

    @Override
    public HistoryStore historyStore() {
        return historyTap.store();
    }

    /** Board values written to the history from boards' backfill rings, and board sequences recorded lost. Tests, views. */
    public long[] backfilled() {
        return onNodeThread(() -> {
            HistoryBackfill b = historyTap.backfill();
            return new long[] {b.filled(), b.lost(), b.pending()};
        });
    }

    @Override
    public WriteOutcome write(String path, String text) {
        return actions.write(path, text);
    }

    /** The host's own open subscription to {@code path} in slot {@code slot}, or null. Node thread. */
    private Subscription localSlot(String path, int slot) {
        List<LocalWatch> local = new ArrayList<>(watches);
        local.addAll(shown.values());
        for (LocalWatch w : local) {
            if (w.sub.isOpen() && w.sub.index() == slot && Objects.equals(w.path.toString(), path)) {
                return w.sub;
            }
        }
        return null;
    }

    @Override
    public Registration onChange(Runnable listener) {
        return renderer.onChange(listener);
    }

    @Override
    public void close() {
        loop.close(); // stops the node thread, then closes the links and the node
        renderer.close();
        historyTap.close(); // what the node queued is written
    }
}
