package io.spectrum.client;

import io.spectrum.link.Link;
import io.spectrum.link.PeerListener;
import io.spectrum.link.PeerLiveness;
import io.spectrum.runtime.LinkSpec;
import io.spectrum.time.Clock;
import io.spectrum.time.SystemClock;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.Extensions;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Names;
import io.spectrum.wire.Utf8;
import io.spectrum.wire.WireError;

import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The one request/reply client of a node, under the CLI, the host's owner surface
 * and the HIL suite. Each request is a FWD with its own reply route (libtracer's rule: the reply's dst is
 * the request's src), so the answer is matched by route; a request not answered within the timeout
 * is a local {@link WireError#FLOW_TIMEOUT}. Refusals are typed {@link Reply} codes, never thrown.
 *
 * <p>Reads, writes and AWAITs; the {@code :subscribers} surface (RFC-0035): append, list, and by
 * index, with the generation guard when the identity is known, suspend / resume (the toggle arm),
 * clear and replace; the tree walk ({@link TreeWalk}). FWD WRITEs the node sends to us (deliveries)
 * go to the {@link #onDelivery} sink while the client polls; a READ the node sends us (its liveness
 * ping) is answered {@code path::not_found}, so a client that only listens is not timed out and its
 * slots are not reaped. All encoding and parsing is the wire
 * package's ({@link Requests}, {@link Inbox}).
 *
 * <p>A node drops what it holds for a peer it has not heard from for its peer timeout (the
 * subscriptions first), and tells no one. A client that is not polled answers no ping, so a gap in
 * its own polling longer than {@link #pollGapLimit} is taken as that loss ({@link #peerStateLosses}):
 * the holder of its subscriptions ({@link HeldSubscriptions}, {@link Follower}) then checks and
 * re-appends them and reports what was missed (docs/node.md, "A client that was not polled").
 *
 * <p>Single-threaded: the caller's thread polls the transport while it waits. Nothing is kept
 * beyond the request in flight (and a suspended slot's delivering rendering), so a long-running
 * follower does not grow.
 */
public final class PeerClient implements AutoCloseable {
    /** Sees every frame crossing the transport, both ways (for {@code tap} and the HIL's record). */
    public interface FrameTap {
        /** One frame, {@code outbound} when the client sent it; the buffer is valid only during the call. */
        void frame(boolean outbound, byte[] buf, int off, int len);
    }

    private static final int POLL_BATCH = 64;
    private static final long IDLE_PARK_NS = 100_000L;
    private static final long FOLLOW_PARK_NS = 1_000_000L;
    /**
     * The default {@link #pollGapLimit}: a node process's default peer timeout less its ping
     * interval, since the node last heard this client up to one ping before the client stopped.
     */
    private static final Duration DEFAULT_POLL_GAP_LIMIT =
            Duration.ofMillis(LinkSpec.DEFAULT_TIMEOUT_MILLIS - LinkSpec.DEFAULT_PING_MILLIS);

    private final Transport transport;
    private final Duration timeout;
    private final String replyPrefix;
    private final Inbox inbox = new Inbox(this::now);
    private final Toggles toggles = new Toggles();
    private final Declarations declarations = new Declarations();
    private final Transport.Sink sink = this::inbound;
    private FrameTap tap;
    /** The extensions announcement appended to each request, or null (plain v1). */
    private byte[] announcement;
    /** The name the client announces ({@link #announceExtensions(String)}), or null. */
    private byte[] announcedName;
    private Runnable onPump;
    private long nextRequest = 1;
    /** What every wait reads its deadline from, and how an empty round waits (a request's, a follower's). */
    private Clock clock = SystemClock.INSTANCE;
    private IdleStrategy requestIdle = new SleepingIdleStrategy(IDLE_PARK_NS);
    private IdleStrategy followIdle = new SleepingIdleStrategy(FOLLOW_PARK_NS);
    private Duration pollGapLimit = DEFAULT_POLL_GAP_LIMIT;
    /**
     * The link's own rule for an owner that was away (not polled) past the timeout, applied to this
     * client's polls: the node is "up" once it was heard, "down" (its state of us assumed lost) when a
     * poll comes after a gap longer than {@link #pollGapLimit}. Made on the first poll, on the clock then set.
     */
    private PeerLiveness presence;
    private long peerStateLosses;
    private long lastGapNanos;
    private long lastPollNanos;
    private final PeerListener lossCounter = new PeerListener() {
        @Override
        public void onPeerUp(Link link, int peer) {
            // heard: there may be state of ours at the node from now on
        }

        @Override
        public void onPeerDown(Link link, int peer) {
            peerStateLosses++;
        }
    };

    /** A client with reply routes {@code replyPrefix + n} (e.g. {@code /cli/r/}). */
    public PeerClient(Transport transport, Duration timeout, String replyPrefix) {
        this.transport = transport;
        this.timeout = timeout;
        this.replyPrefix = replyPrefix;
    }

    /** A client of {@code peer} on {@code link}, reply routes {@code /cli/r/n}. */
    public PeerClient(Link link, int peer, Duration timeout) {
        this(new LinkTransport(link, peer), timeout, "/cli/r/");
    }

    /** The transport this client sends on and polls. */
    public Transport transport() {
        return transport;
    }

    /**
     * The clock its waits' deadlines (and the deliveries' receive times) are read from, and how an
     * empty round of a wait idles (default: the system clock, a 100 µs park for a request, 1 ms for a
     * follower). Set before use.
     */
    public PeerClient time(Clock clock, IdleStrategy idle) {
        this.clock = java.util.Objects.requireNonNull(clock);
        this.requestIdle = java.util.Objects.requireNonNull(idle);
        this.followIdle = idle;
        this.presence = null;
        return this;
    }

    /**
     * Where this client takes a declaration from before it reads one from its peer: {@code held}
     * answers a path's declaration when the peer's own process holds a copy of it (the in-process
     * MQTT bridge of a host: the host's copies of its boards' declarations, what its own views
     * render by), or null, and then the client reads it as usual and keeps it
     * ({@link #declaration}). Called on the client's thread; {@code held} must be safe to call from
     * it. Set before use.
     */
    public PeerClient declarationsFrom(Function<String, VertexSchema> held) {
        declarations.from(held);
        return this;
    }

    /** As {@link #time(Clock, IdleStrategy)}, the waits idling as by default. */
    public PeerClient time(Clock clock) {
        this.clock = java.util.Objects.requireNonNull(clock);
        this.presence = null;
        return this;
    }

    /**
     * The longest gap between two polls after which this client takes it that the node dropped its
     * state (its subscriptions): set it to the node's peer timeout less its ping interval. Default
     * 4 s: the node processes' defaults ({@link LinkSpec#DEFAULT_TIMEOUT_MILLIS} less
     * {@link LinkSpec#DEFAULT_PING_MILLIS}). A shorter limit costs only a check of the held
     * subscriptions after a gap; a longer one than the node's can let a loss through unreported.
     *
     * @throws IllegalArgumentException for a limit that is not positive
     */
    public PeerClient pollGapLimit(Duration limit) {
        if (limit.isNegative() || limit.isZero()) {
            throw new IllegalArgumentException("the poll gap limit must be positive, was " + limit);
        }
        this.pollGapLimit = limit;
        if (presence != null) { // in use: the same clock readings under the new limit
            boolean heard = presence.isUp(0);
            presence = liveness(lastPollNanos);
            if (heard) {
                presence.heard(0, lastPollNanos);
            }
        }
        return this;
    }

    /** The poll gap after which the node's state of this client is taken as lost ({@link #pollGapLimit(Duration)}). */
    public Duration pollGapLimit() {
        return pollGapLimit;
    }

    /**
     * How many times a poll came after a gap longer than {@link #pollGapLimit} while the node had been
     * heard: each time the node may have dropped this client's slots. A holder compares it with the
     * count it saw last ({@link HeldSubscriptions#peerStateLost}).
     */
    public long peerStateLosses() {
        return peerStateLosses;
    }

    /** The gap in polling (ns) behind the last of {@link #peerStateLosses}, 0 before any. */
    public long lastGapNanos() {
        return lastGapNanos;
    }

    /** The clock this client's waits read (for a caller's own timers beside them). */
    public Clock clock() {
        return clock;
    }

    private long now() {
        return clock.nanoTime();
    }

    /** How long a request waits for its answer before it is a local {@code FLOW_TIMEOUT}. */
    public Duration timeout() {
        return timeout;
    }

    /** The prefix of this client's reply routes. */
    public String replyPrefix() {
        return replyPrefix;
    }

    /** Shows every frame both ways to {@code t} (null removes it); called on the client's thread. */
    public void setTap(FrameTap t) {
        tap = t;
    }

    /** Where deliveries go while the client polls (null drops them). */
    public void onDelivery(Consumer<Delivery> s) {
        inbox.deliverTo(s);
    }

    /** Runs on every poll round, e.g. the timers of a node riding the same link (null removes it). */
    public void onPump(Runnable r) {
        onPump = r;
    }

    // ---- requests -------------------------------------------------------------------------------

    /** READ {@code path}: its value, or the node's typed refusal, or {@code FLOW_TIMEOUT}. */
    public Reply read(String path) {
        return call(FwdView.OP_READ, path, null, null);
    }

    /**
     * READ {@code path} asking the node for its topic stamp on the answer (a trailing
     * {@code SETTINGS{NAME "spectrum.topic" VALUE u8 1}}, with the announcement's pairs when the client
     * announces; docs/extensions.md "Delivery stamp"): a Spectrum node answers the value with its
     * sequence and, when it is stale, the stale mark and its reason ({@link Reply#stale},
     * {@link Reply#staleReason}); a v1 node ignores the child and answers the plain value.
     */
    public Reply readStamped(String path) {
        byte[] src = nextRoute();
        return exchange(src, Requests.fwd(FwdView.OP_READ, Requests.path(path), null, src,
                Requests.askStamp(announcement)), timeout);
    }

    /** READ {@code path} with a FIELD selector (e.g. {@link Requests#subscribersAt}). */
    public Reply read(String path, byte[] field) {
        return call(FwdView.OP_READ, path, field, null);
    }

    /**
     * WRITE {@code value} (one value TLV) to {@code path}; a {@code schema::type_mismatch} refusal also forgets the
     * cached declaration of {@code path}.
     */
    public Reply write(String path, byte[] value) {
        Reply r = call(FwdView.OP_WRITE, path, null, value);
        declarations.answered(path, r);
        return r;
    }

    /**
     * WRITE {@code value} through a FIELD selector (e.g. a {@code :subscribers[N]} slot); the answer or refusal as a
     * {@link Reply}.
     */
    public Reply write(String path, byte[] field, byte[] value) {
        return call(FwdView.OP_WRITE, path, field, value);
    }

    // ---- vertex declarations ----------------------------------------------------------------------

    /**
     * The declaration of the vertex at {@code path} ({@code PATH:settings.app}, read once and kept:
     * {@link Declarations}), or null when it has none, the peer is a plain v1 node without
     * declarations, or it did not answer.
     *
     * @throws IllegalArgumentException when {@code path} is not a valid path
     */
    public VertexSchema declaration(String path) {
        return declarations.get(this, path);
    }

    /** {@code tlv} rendered with {@code path}'s declaration ({@link ValueFormat}). */
    public ValueText render(String path, byte[] tlv) {
        return ValueFormat.render(tlv, declaration(path));
    }

    /** Forgets every declaration read so far (the peer restarted); the next use reads them again. */
    public void forgetDeclarations() {
        declarations.forget();
    }

    /** AWAIT {@code path}: the next value within {@code waitNs} (the node's answer), waiting that long plus the timeout. */
    public Reply await(String path, long waitNs) {
        byte[] src = nextRoute();
        byte[] frame = Requests.fwd(FwdView.OP_AWAIT, Requests.path(path), null, src,
                Requests.build(w -> w.value(waitNs, 8)), announcement);
        return exchange(src, frame, Duration.ofNanos(waitNs).plus(timeout));
    }

    /**
     * FWD{op, path, [field], fresh reply route, [payload]} and its REPLY.
     *
     * @throws IllegalArgumentException when {@code path} is not a valid path (a caller's mistake)
     */
    public Reply call(int op, String path, byte[] field, byte[] payload) {
        return call(op, Requests.path(path), field, payload);
    }

    /** As {@link #call(int, String, byte[], byte[])} with an encoded dst (any bytes, e.g. a malformed PATH). */
    public Reply call(int op, byte[] dst, byte[] field, byte[] payload) {
        byte[] src = nextRoute();
        return exchange(src, Requests.fwd(op, dst, field, src, payload, announcement), timeout);
    }

    /** FWD{op, path, [field], src = {@code replyRoute}, [payload]} and the REPLY addressed to that route. */
    public Reply callVia(String replyRoute, int op, String path, byte[] field, byte[] payload) {
        byte[] dst = Requests.path(path);
        byte[] src = Requests.path(replyRoute);
        return exchange(src, Requests.fwd(op, dst, field, src, payload, announcement), timeout);
    }

    /**
     * Announces Spectrum's extensions on every request ({@link Extensions}: a trailing SETTINGS a
     * plain v1 node ignores), so a Spectrum node answers appends with the slot's identity (index,
     * generation) for the generation guard. Off by default: the client then speaks plain v1.
     */
    public PeerClient announceExtensions(boolean on) {
        announcement = on ? Requests.build(Extensions::announce) : null;
        announcedName = null;
        return this;
    }

    /**
     * Announces Spectrum's extensions on every request with the client's name ({@code spectrum.name},
     * docs/extensions.md "Peer name"), so a WIDE node knows it by that name rather than by its
     * address: coming back from a new port it is the same publisher. A null or empty name announces
     * without one ({@link #announceExtensions(boolean) announceExtensions(true)}).
     *
     * @throws IllegalArgumentException for a name longer than {@link Names#PEER_NAME_MAX} bytes of UTF-8
     */
    public PeerClient announceExtensions(String name) {
        if (name == null || name.isEmpty()) {
            return announceExtensions(true);
        }
        byte[] n = Utf8.bytes(name);
        if (n.length > Names.PEER_NAME_MAX) {
            throw new IllegalArgumentException("a peer name is at most " + Names.PEER_NAME_MAX + " bytes: " + name);
        }
        announcement = Requests.build(w -> Extensions.announce(w, n));
        announcedName = n;
        return this;
    }

    /**
     * Clears the value of {@code path} on the node: a WRITE of the empty STATUS announcing
     * {@code spectrum.clear} (docs/extensions.md, "Announcement key spectrum.clear"), with the client's
     * name when it announces one. The value goes; with {@code notify} the vertex spends its next
     * sequence number and its subscribers get the delete notice. A WIDE host asks the grants'
     * {@code manage} for it. A plain v1 node ignores the announcement and stores the empty STATUS.
     */
    public Reply clearValue(String path, boolean notify) {
        byte[] name = announcedName;
        byte[] clear = Requests.build(w -> Extensions.announceClear(w, name, notify));
        byte[] src = nextRoute();
        return exchange(src, Requests.fwd(FwdView.OP_WRITE, Requests.path(path), null, src,
                Names.EMPTY_STATUS.copy(), clear), timeout);
    }

    private byte[] nextRoute() {
        return Requests.path(replyPrefix + (nextRequest++));
    }

    /** Sends a whole FWD request whose src is the PATH {@code src} and waits for the REPLY to that route. */
    private Reply exchange(byte[] src, byte[] frame, Duration max) {
        if (frame == null) {
            return Reply.local(WireError.FLOW_BACKPRESSURE); // does not fit a frame
        }
        inbox.await(src);
        try {
            int sent = send(frame);
            if (sent != WireError.OK) {
                return Reply.local(sent);
            }
            pumpUntil(() -> inbox.awaited() != null, max);
            Reply r = inbox.awaited();
            return r != null ? r : Reply.local(WireError.FLOW_TIMEOUT);
        } finally {
            inbox.stopAwaiting();
        }
    }

    // ---- the :subscribers surface (RFC-0035) -----------------------------------------------------

    /**
     * Appends SUBSCRIBER{route, [SETTINGS{[delivery_policy], [spectrum.topic 1]}]} to
     * {@code vertex:subscribers[]} with {@code route} as the request's src, so the node delivers
     * FWD{WRITE, dst = route} here and answers the append on that route too.
     *
     * @param policy the delivery_policy word, or -1 for none (absent reads as 0)
     * @param stamped ask for the node's topic stamp on each delivery (docs/extensions.md)
     */
    public Subscribed subscribe(String vertex, String route, int policy, boolean stamped) {
        return subscribe(vertex, route, Requests.subscriber(route, policy, stamped));
    }

    /**
     * As {@link #subscribe(String, String, int, boolean)} with {@code spectrum.topic} VALUE u8
     * {@code topic}: {@code Names.TOPIC_STAMP | Names.TOPIC_WITH_PATH} also asks for the path of the
     * vertex each delivery was written at ({@link Delivery#source()}: which child of a subtree changed).
     */
    public Subscribed subscribe(String vertex, String route, int policy, int topic) {
        return subscribe(vertex, route, Requests.subscriber(route, policy, topic));
    }

    /** Appends the SUBSCRIBER {@code record} (already encoded), the request's src being {@code route}. */
    public Subscribed subscribe(String vertex, String route, byte[] record) {
        return Subscribed.of(callVia(route, FwdView.OP_WRITE, vertex, Requests.subscribers(), record));
    }

    /** READ {@code vertex:subscribers[]}: the slots in order, holes included. */
    public SubscriberList subscribers(String vertex) {
        return SubscriberList.of(read(vertex, Requests.subscribers()));
    }

    /** READ {@code vertex:subscribers[N]}: the slot's record rendered under its live state. */
    public Reply slot(String vertex, int index, long generation) {
        return read(vertex, Requests.subscribersAt(index, generation));
    }

    /** Suspends slot N (bit 9 set through the toggle arm; no frame but the reply, no replay). */
    public Reply suspend(String vertex, int index, long generation) {
        return toggle(vertex, index, generation, true);
    }

    /** Resumes slot N (bit 9 cleared through the toggle arm; nothing written meanwhile is replayed). */
    public Reply resume(String vertex, int index, long generation) {
        return toggle(vertex, index, generation, false);
    }

    private Reply toggle(String vertex, int index, long generation, boolean suspended) {
        Reply current = slot(vertex, index, generation);
        if (!current.ok()) {
            return current;
        }
        String key = vertex + "[" + index + "]";
        byte[] record = toggles.record(key, current.value(), suspended);
        if (record == null) {
            return Reply.local(WireError.PATH_NOT_FOUND); // a hole, or not a record
        }
        Reply r = write(vertex, Requests.subscribersAt(index, generation), record);
        if (r.ok() && !suspended) {
            toggles.forget(key);
        }
        return r;
    }

    /**
     * The consumed message to slot N of a delivery-mode subscription (docs/extensions.md "Delivery
     * modes"): gives back the credits of every delivery numbered up to {@code upTo}
     * ({@link Delivery#dlv()}). Cumulative and idempotent, so a lost one is repaired by the next;
     * {@code upTo} above the last delivered number is refused with {@code tr::path::invalid}.
     */
    public Reply consumed(String vertex, int index, long generation, long upTo) {
        return write(vertex, Requests.subscribersAt(index, generation), Requests.consumed(upTo));
    }

    /** Clears slot N: it becomes an empty-STATUS hole. */
    public Reply clear(String vertex, int index, long generation) {
        toggles.forget(vertex + "[" + index + "]");
        return write(vertex, Requests.subscribersAt(index, generation), Requests.emptyStatus());
    }

    /** Replaces slot N's record with {@code record} (arm 3: re-admitted through the append door). */
    public Subscribed replace(String vertex, int index, long generation, byte[] record) {
        toggles.forget(vertex + "[" + index + "]");
        return Subscribed.of(write(vertex, Requests.subscribersAt(index, generation), record));
    }

    /** Walks the tree under {@code path}, {@code maxDepth} levels down, handing each vertex to {@code visitor}. */
    public TreeWalk.Vertex walk(String path, int maxDepth, TreeWalk.Visitor visitor) {
        return new TreeWalk(this, maxDepth, visitor).walk(path);
    }

    // ---- the transport --------------------------------------------------------------------------

    /**
     * Sends one whole frame as is (any bytes: the HIL sends malformed ones on purpose). While the
     * transport pushes back it keeps polling and retries, up to the timeout.
     *
     * @return {@link WireError#OK} or the transport's refusal
     */
    public int send(byte[] frame) {
        long deadline = clock.nanoTime() + timeout.toNanos();
        requestIdle.reset();
        while (true) {
            if (tap != null) {
                tap.frame(true, frame, 0, frame.length);
            }
            int rc = transport.send(frame, 0, frame.length);
            if (rc != WireError.FLOW_BACKPRESSURE || clock.nanoTime() - deadline > 0) {
                return rc;
            }
            requestIdle.idle(pumpOnce());
        }
    }

    /** Polls everything the transport has now, then answers the requests it brought (the peer's liveness ping); returns frames read. */
    public int pumpOnce() {
        polled();
        if (onPump != null) {
            onPump.run();
        }
        int total = 0;
        int n;
        do {
            n = transport.poll(sink, POLL_BATCH);
            total += n;
        } while (n > 0);
        for (byte[] a = inbox.takeAnswer(); a != null; a = inbox.takeAnswer()) {
            if (tap != null) {
                tap.frame(true, a, 0, a.length);
            }
            transport.send(a, 0, a.length); // the peer's liveness ping answered: best effort, never waited for
        }
        return total;
    }

    /** Polls for {@code d} (a follower's loop: idle rounds park longer than a request's wait). */
    public void pumpFor(Duration d) {
        pumpUntil(() -> false, d, followIdle);
    }

    /** Polls until {@code done} holds or {@code max} has passed; returns whether it held. */
    public boolean pumpUntil(BooleanSupplier done, Duration max) {
        return pumpUntil(done, max, requestIdle);
    }

    private boolean pumpUntil(BooleanSupplier done, Duration max, IdleStrategy idle) {
        long deadline = clock.nanoTime() + max.toNanos();
        idle.reset();
        while (true) {
            int n = pumpOnce();
            if (done.getAsBoolean()) {
                return true;
            }
            if (clock.nanoTime() - deadline >= 0) {
                return false;
            }
            idle.idle(n);
        }
    }

    /** Notes this poll; one after a gap past {@link #pollGapLimit} counts a loss when the node had been heard. */
    private void polled() {
        long now = clock.nanoTime();
        if (presence == null) {
            presence = liveness(now);
        }
        long losses = peerStateLosses;
        presence.polled(now);
        if (peerStateLosses != losses) {
            lastGapNanos = now - lastPollNanos;
        }
        lastPollNanos = now;
    }

    private PeerLiveness liveness(long lastPoll) {
        PeerLiveness l = new PeerLiveness(null, 1, pollGapLimit.toNanos(), Long.MAX_VALUE, false, lastPoll);
        l.setListener(lossCounter);
        return l;
    }

    private void inbound(byte[] buf, int off, int len) {
        if (tap != null) {
            tap.frame(false, buf, off, len);
        }
        if (presence != null) {
            presence.heard(0, clock.nanoTime());
        }
        inbox.frame(buf, off, len);
    }

    @Override
    public void close() {
        transport.close();
    }
}
