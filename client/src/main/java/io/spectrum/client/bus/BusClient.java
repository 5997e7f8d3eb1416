package io.spectrum.client.bus;

import io.spectrum.wire.Dispatch;
import io.spectrum.wire.BusError;
import io.spectrum.client.LinkTransport;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Transport;
import io.spectrum.link.Link;
import io.spectrum.link.local.LocalLinkConfig;
import io.spectrum.runtime.LinkSettings;
import io.spectrum.runtime.LinkSpec;
import io.spectrum.time.SystemClock;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusFields;
import io.spectrum.bus.protocol.BusWire;
import io.spectrum.bus.protocol.BusFrames;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.bus.protocol.Retention;
import io.spectrum.bus.protocol.SubscriptionMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The host bus for an application (docs/bus.md): one connection to the host's bus over a
 * {@link Transport} (the Unix-socket link, TCP, or in-process), with every operation of the
 * Flybus profile — declare, subscribe with a mode and limits, publish with attachments, consume,
 * unsubscribe, clear, delete; allocate / seal / open / retain / release artifacts; serve, call,
 * reply, cancel; stats. Each operation waits for the bus's reply (at most the configured timeout)
 * and throws a {@link BusException} with the bus's typed code when refused. Thread-safe: one I/O
 * thread owns the transport; a service's handler runs on the client's dispatcher thread.
 */
public final class BusClient implements AutoCloseable {
    /** The route this client's replies come back on (any valid path; the link knows who we are). */
    static final String ROUTE = "/bus-client";
    /**
     * The reply routes of the node client ({@link #node()}): {@code /bus-node/r/<n>}, apart from the bus's own
     * ({@code /bus-client/r/<n>}), so neither takes the other's replies.
     */
    public static final String NODE_ROUTE = "/bus-node/r/";

    private final BusIo io;
    private final long timeoutMillis;
    private final Map<String, BusSubscription> subscriptions = new ConcurrentHashMap<>();
    private final Map<String, Consumer<Request>> services = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<CallResult>> calls = new ConcurrentHashMap<>();
    private final AtomicLong callSerial = new AtomicLong();
    private final Object callOrder = new Object();
    private final ExecutorService dispatcher;
    private final List<BusFields> notices = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile Path storeRoot;
    private volatile String clientId;
    private volatile String storeId;
    private volatile boolean anonymous;
    /** The node client, made at the first {@link #node()}; guarded by {@code this}. */
    private PeerClient node;

    private BusClient(Transport transport, long timeoutMillis) {
        this.timeoutMillis = timeoutMillis;
        dispatcher = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "bus-client-dispatch");
            t.setDaemon(true);
            return t;
        });
        io = new BusIo(transport, ROUTE, this::onEvent, "bus-client-io");
    }

    /** The largest frame a bus link carries: the default {@link BusLimits#maxFrameBytes()}. */
    public static final int LINK_MAX_FRAME = BusLimits.defaults().maxFrameBytes();

    /** The local-link settings of a bus connection, on both ends (frame size {@link #LINK_MAX_FRAME}). */
    public static LocalLinkConfig linkConfig() {
        return linkConfig(BusLimits.defaults());
    }

    /** The local-link settings for a bus with {@code limits} (frames up to {@link BusLimits#maxFrameBytes()}). */
    public static LocalLinkConfig linkConfig(BusLimits limits) {
        return new LocalLinkConfig().maxFrame(limits.maxFrameBytes());
    }

    /**
     * Connects to the host bus listening at {@code address} (a Unix socket path, or a TCP address
     * for a process on another host) as {@code name} (null: an anonymous identity).
     *
     * @throws BusException ROUTER_LOST when nothing listens there or the bus does not answer
     */
    public static BusClient connect(SocketAddress address, String name, long timeoutMillis) throws BusException {
        String link = address instanceof UnixDomainSocketAddress u ? "unix://" + u.getPath().toAbsolutePath()
                : address instanceof InetSocketAddress i ? "tcp://" + (i.getHostString().indexOf(':') >= 0 ? "[" + i.getHostString() + "]" : i.getHostString())
                + ":" + i.getPort() : String.valueOf(address);
        return connect(link, name, timeoutMillis);
    }

    /**
     * Connects to the host bus at {@code link}, a link URI ({@code unix:///run/spectrum/bus.sock}, or
     * {@code tcp://HOST:PORT} for the bus's TCP socket; a bare path is a Unix socket) opened by the link
     * factory ({@link LinkSpec}), as {@code name} (null: an anonymous identity).
     *
     * @throws BusException ROUTER_LOST when nothing listens there or the bus does not answer
     * @throws IllegalArgumentException (one line, with what to write) when {@code link} is no link URI
     */
    public static BusClient connect(String link, String name, long timeoutMillis) throws BusException {
        LinkSpec.Uri uri = LinkSpec.parse(link, "unix");
        if (!uri.scheme().equals("unix") && !uri.scheme().equals("tcp")) {
            throw new IllegalArgumentException(link + ": the bus is reached over its socket; write e.g. "
                    + "unix:///run/spectrum/bus.sock (spectrum host --bus PATH) or tcp://127.0.0.1:7710 (--bus-tcp)");
        }
        Link l;
        try {
            l = LinkSpec.open(1, uri, LinkSpec.Role.DIAL, new LinkSettings().frameBytes(LINK_MAX_FRAME)
                    .helloRequired(true).name(name), SystemClock.INSTANCE);
        } catch (IOException e) {
            throw new BusException(BusError.ROUTER_LOST, "no bus at " + link + " (" + e.getMessage()
                    + "): start one with spectrum host --bus PATH");
        }
        return connect(new LinkTransport(l, 0), timeoutMillis);
    }

    /**
     * Connects over {@code transport} and says hello: the reply names this connection's client id
     * and the artifact store's root.
     */
    public static BusClient connect(Transport transport, long timeoutMillis) throws BusException {
        BusClient c = new BusClient(transport, timeoutMillis);
        try {
            BusFields hello = c.call("bus.hello", BusFields.of());
            c.clientId = hello.string("clientId");
            c.anonymous = hello.bool("anonymous", false);
            c.storeId = hello.string("storeId", null);
            String root = hello.string("storeRoot", null);
            c.storeRoot = root == null ? null : Path.of(root);
            // the bus closes a connection silent for its idle timeout: ping at a third of it
            c.io.keepalive(hello.u64("idleTimeoutMs", 0) / 3);
        } catch (BusException e) {
            c.close();
            throw e;
        }
        return c;
    }

    /** The identity the bus gave this connection (its registered name, or an anonymous id). */
    public String clientId() {
        return clientId;
    }

    /**
     * The host's node through this bus connection (docs/bus.md, "The host's node through the bus"):
     * the one request client ({@link PeerClient}) whose frames ride this connection, so it reads,
     * writes, follows and subscribes to the node's vertices (the boards' among them) with the node's
     * own semantics: values, sequence and stale marks, the delivery modes and their credits, the
     * boards' declarations and rights. The node knows it as this connection: when the connection
     * closes, the node drops what it held for it (its subscriptions). Its reply routes are
     * {@link #NODE_ROUTE}{@code <n>}; it announces Spectrum's extensions with this client's name
     * (none when anonymous). The same client on every call. Like any {@link PeerClient} it is
     * single-threaded: one thread uses it, and that thread polls it while it waits (requests,
     * {@link PeerClient#pumpFor}), parking between polls until this client's I/O thread hands it a
     * frame (at most 1 ms); this client's I/O thread only moves the frames, and keeps at most
     * 8 MiB of the node's frames for it between polls (more are dropped). A bus without a node
     * (a bus run alone) refuses the frames, and the client's requests time out.
     */
    public synchronized PeerClient node() {
        if (node == null) {
            io.nodeOpen(true);
            // its waits park until this connection's I/O thread has a frame for it (NodeWait), not on a fixed period
            node = new PeerClient(new NodeTransport(io), Duration.ofMillis(timeoutMillis), NODE_ROUTE)
                    .announceExtensions(anonymous ? null : clientId).time(SystemClock.INSTANCE, new NodeWait(io));
        }
        return node;
    }

    /** Frames for or from the node client that were dropped (over its bounds, or refused by the link). */
    public long nodeFramesDropped() {
        return io.nodeDropped();
    }

    /** The artifact store's id for this run of the bus. */
    public String storeId() {
        return storeId;
    }

    /** Notices the bus sent that no other handle took (connection.closing, route.removed…), oldest first. */
    public List<BusFields> notices() {
        return List.copyOf(notices);
    }

    // ---- topics ----

    /** Declares {@code topic}; the reply says whether it is new and its incarnation. */
    public BusFields declare(String topic, Retention retention) throws BusException {
        return call("topic.declare", BusFields.of().put("name", topic).put("retained", retention.wireName()));
    }

    /** Releases {@code topic}'s retained value; true when there was one. Needs a manage-topics grant. */
    public boolean clear(String topic) throws BusException {
        return call("topic.clear", BusFields.of().put("name", topic)).bool("cleared");
    }

    /** Deletes {@code topic}; false when it was not declared, CONFLICT while it has subscriptions. */
    public boolean delete(String topic) throws BusException {
        return call("topic.delete", BusFields.of().put("name", topic)).bool("deleted");
    }

    /**
     * Subscribes to {@code topic} in {@code mode} with its queue and in-flight bounds, the retained value replayed
     * first when {@code replayLatest}; deliveries arrive in the returned handle in order. NO_TOPIC for an undeclared
     * topic.
     */
    public BusSubscription subscribe(String topic, SubscriptionMode mode, int maxQueued, int maxInFlight, boolean replayLatest)
            throws BusException {
        // the subscription is registered before the request leaves, so a replay that races the reply lands in it
        BusFields r = call("subscribe", BusFields.of().put("topic", topic).put("mode", mode.wireName())
                .put("maxQueued", maxQueued).put("maxInFlight", maxInFlight).put("replayLatest", replayLatest));
        BusSubscription s = subscriptions.computeIfAbsent(r.string("subscriptionId"),
                id -> new BusSubscription(this, id, topic, null));
        if (s.topicIncarnation == null) {
            // one handle from the start: a delivery the I/O thread files before this reply lands in the same inbox
            s.topicIncarnation = r.string("topicIncarnation");
        }
        return s;
    }

    boolean unsubscribe(String subscriptionId) throws BusException {
        boolean removed = call("unsubscribe", BusFields.of().put("subscriptionId", subscriptionId)).bool("removed");
        if (removed) {
            subscriptions.remove(subscriptionId);
        }
        return removed;
    }

    /** Unsubscribes an id this client may not hold (the bus answers removed=false for another's id). */
    public boolean unsubscribeId(String subscriptionId) throws BusException {
        return unsubscribe(subscriptionId);
    }

    /**
     * Publishes {@code payload} with attachments ({@link Artifact#attachment},
     * {@link ArtifactWriter#attachment}); the reply has topicSequence, subscribers and replaced.
     */
    public BusFields publish(String topic, byte[] payload, BusFields... attachments) throws BusException {
        return call("publish", BusFields.of().put("topic", topic).putBytes("payload", payload)
                .putRecords("attachments", Arrays.asList(attachments)));
    }

    /**
     * {@link #publish(String, byte[], BusFields...)} with {@code retain}: false leaves a {@code latest}
     * topic's retained value (and the sequence a replay carries) as it was; the publish still spends a
     * sequence number and reaches the subscribers (docs/bus.md, "Retain: false").
     */
    public BusFields publish(String topic, byte[] payload, boolean retain, BusFields... attachments)
            throws BusException {
        return call("publish", BusFields.of().put("topic", topic).putBytes("payload", payload)
                .putRecords("attachments", Arrays.asList(attachments)).put("retain", retain));
    }

    /** Says these deliveries are done with; returns the roots released. */
    public long consumed(String... deliveryIds) throws BusException {
        return call("delivery.consumed", BusFields.of().putStrings("deliveryIds", Arrays.asList(deliveryIds)))
                .u64("released");
    }

    // ---- artifacts ----

    /**
     * Allocates a writable artifact of {@code byteLength} bytes (content type {@code application/octet-stream} when
     * null); QUOTA_EXCEEDED past the store's limits.
     */
    public ArtifactWriter allocate(long byteLength, String contentType) throws BusException {
        BusFields r = call("artifact.allocate", BusFields.of().put("byteLength", byteLength)
                .put("contentType", contentType == null ? "application/octet-stream" : contentType));
        return new ArtifactWriter(this, r.u64("artifactId"), r.u64("generation"), byteLength, r.string("ownerId"),
                r.string("writeLocation"));
    }

    Artifact seal(ArtifactWriter w, String digest) throws BusException {
        BusFields req = BusFields.of().put("artifactId", w.artifactId()).put("generation", w.generation())
                .put("ownerId", w.ownerId());
        if (digest != null) {
            req.put("digest", digest);
        }
        BusFields r = call("artifact.seal", req);
        return new Artifact(this, null, BusWire.ref(r.record("ref")), r.string("ownerId"), r.string("readLocation", null));
    }

    String open(Artifact a) throws BusException {
        return call("artifact.open", BusFields.of().putRecord("ref", BusWire.ref(a.ref())).put("ownerId", a.ownerId()))
                .string("readLocation");
    }

    Artifact retain(Artifact a) throws BusException {
        BusFields r = call("artifact.retain", BusFields.of().putRecord("ref", BusWire.ref(a.ref())).put("ownerId", a.ownerId()));
        return new Artifact(this, null, a.ref(), r.string("ownerId"), r.string("readLocation", null));
    }

    /** Releases holds or writers by owner id; returns the roots released. */
    public long release(String... ownerIds) throws BusException {
        return call("artifact.release", BusFields.of().putStrings("ownerIds", Arrays.asList(ownerIds))).u64("released");
    }

    /** The artifact store's directory on this host (from the hello). */
    Path storeRoot() throws BusException {
        Path root = storeRoot;
        if (root == null) {
            throw new BusException(BusError.ARTIFACT_GONE, "this bus has no artifact store");
        }
        return root;
    }

    // ---- services and calls ----

    /** Registers {@code name} exclusively; each request runs {@code handler} on the dispatcher thread. */
    public String serve(String name, int maxQueued, int maxInFlight, Consumer<Request> handler) throws BusException {
        services.put(name, handler);
        try {
            return call("service.register", BusFields.of().put("name", name).put("maxQueued", maxQueued)
                    .put("maxInFlight", maxInFlight)).string("serviceIncarnation");
        } catch (BusException e) {
            services.remove(name);
            throw e;
        }
    }

    /**
     * Unregisters {@code name}'s {@code incarnation} and drops its handler; false unless this client held that
     * incarnation.
     */
    public boolean unserve(String name, String incarnation) throws BusException {
        boolean removed = call("service.unregister", BusFields.of().put("name", name)
                .put("serviceIncarnation", incarnation)).bool("removed");
        services.remove(name);
        return removed;
    }

    /** A call in progress: its id, the future of its result, and cancel. */
    public record PendingCall(String callId, String serviceIncarnation, CompletableFuture<CallResult> result,
            BusClient client) {
        /** One of cancelled-before-dispatch, execution-unknown, completed, call-gone. */
        public String cancel() throws BusException {
            return client.cancel(callId);
        }
    }

    /**
     * Calls {@code target}; {@code expectedIncarnation} (or null) pins the service registration.
     * Call ids are numbered per connection and the bus refuses one at or below the highest it has
     * seen (CALL_GONE), so numbering and queueing the request happen together: calls from several
     * threads leave in id order.
     */
    public PendingCall call(String target, String method, byte[] payload, String expectedIncarnation,
            BusFields... attachments) throws BusException {
        String callId;
        CompletableFuture<CallResult> f = new CompletableFuture<>();
        CompletableFuture<BusFrames.Decoded> sent;
        synchronized (callOrder) { // no I/O under it: io.request only queues the frame
            callId = "call-" + callSerial.incrementAndGet();
            calls.put(callId, f);
            sent = io.request("rpc.call", callRequest(callId, target, method, payload, expectedIncarnation, attachments));
        }
        return accepted(callId, f, null, sent);
    }

    /** Calls with a caller-chosen id (a reused or retired id is refused by the bus). */
    public PendingCall callWithId(String callId, String target, String method, byte[] payload,
            String expectedIncarnation, BusFields... attachments) throws BusException {
        CompletableFuture<CallResult> f = new CompletableFuture<>();
        CompletableFuture<CallResult> earlier = calls.putIfAbsent(callId, f);
        return accepted(callId, f, earlier, io.request("rpc.call",
                callRequest(callId, target, method, payload, expectedIncarnation, attachments)));
    }

    private static BusFields callRequest(String callId, String target, String method, byte[] payload,
            String expectedIncarnation, BusFields... attachments) {
        BusFields req = BusFields.of().put("callId", callId).put("target", target).put("method", method)
                .putBytes("payload", payload).putRecords("attachments", Arrays.asList(attachments));
        if (expectedIncarnation != null) {
            req.put("expectedIncarnation", expectedIncarnation);
        }
        return req;
    }

    private PendingCall accepted(String callId, CompletableFuture<CallResult> f, CompletableFuture<CallResult> earlier,
            CompletableFuture<BusFrames.Decoded> sent) throws BusException {
        try {
            BusFields r = await("rpc.call", sent);
            return new PendingCall(callId, r.string("serviceIncarnation", null), earlier != null ? earlier : f, this);
        } catch (BusException e) {
            if (earlier == null) {
                calls.remove(callId, f);
            }
            throw e;
        }
    }

    /**
     * Cancels {@code callId}. Unless a result was already admitted ({@code completed}), none will
     * come: the call's future completes now with the cancel as its failure (CALL_GONE, dispatch
     * {@code not-dispatched} before dispatch, {@code unknown} after), so nothing is left waiting.
     */
    String cancel(String callId) throws BusException {
        String state = call("rpc.cancel", BusFields.of().put("callId", callId)).string("state");
        if (!state.equals("completed")) {
            CompletableFuture<CallResult> f = calls.remove(callId);
            if (f != null) {
                Dispatch d = state.equals("cancelled-before-dispatch") ? Dispatch.NOT_DISPATCHED : Dispatch.UNKNOWN;
                f.complete(new CallResult(callId, null, null, null, new byte[0], List.of(),
                        new BusException(BusError.CALL_GONE, "cancelled: " + state, d), this));
            }
        }
        return state;
    }

    boolean reply(Request rq, byte[] outcome, BusFields... attachments) throws BusException {
        return call("rpc.reply", BusFields.of().put("callId", rq.callId()).put("requestDeliveryId", rq.deliveryId())
                .putBytes("outcome", outcome).putRecords("attachments", Arrays.asList(attachments)))
                .bool("routed");
    }

    /** The services registered on the bus: name, incarnation, holder. */
    public List<BusFields> services() throws BusException {
        return call("service.list", BusFields.of()).recordsOrEmpty("services");
    }

    /** The artifacts the store holds: ref fields, roots. */
    public List<BusFields> artifacts() throws BusException {
        return call("artifact.list", BusFields.of()).recordsOrEmpty("artifacts");
    }

    /** The bus's counters (roots, owners, sealedArtifacts, queued, storeBytes, retainedBytes, …). */
    public BusFields stats() throws BusException {
        return call("bus.stats", BusFields.of());
    }

    // ---- plumbing ----

    /** Sends {@code command} and waits for its reply's fields; a refusal is thrown with its code. */
    public BusFields call(String command, BusFields body) throws BusException {
        return await(command, io.request(command, body));
    }

    private BusFields await(String command, CompletableFuture<BusFrames.Decoded> f) throws BusException {
        BusFrames.Decoded d;
        try {
            d = f.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new BusException(BusError.ROUTER_LOST, command + ": no answer from the bus within " + timeoutMillis
                    + " ms", Dispatch.UNKNOWN);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof BusException b ? b
                    : new BusException(BusError.ROUTER_LOST, command + ": " + e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BusException(BusError.ROUTER_LOST, command + ": interrupted", Dispatch.UNKNOWN);
        }
        if (d.error() != null) {
            throw d.error();
        }
        return d.fields();
    }

    private List<Artifact> artifactsOf(BusFields f) throws BusException {
        List<Artifact> out = new ArrayList<>();
        for (BusFields a : f.recordsOrEmpty("attachments")) {
            out.add(Artifact.listed(this, a.string("name", null), BusWire.ref(a.record("ref")), a.string("ownerId"),
                    a.string("readLocation", null)));
        }
        return out;
    }

    private void onEvent(BusFrames.Decoded d) {
        BusFields f = d.fields();
        try {
            switch (String.valueOf(d.command())) {
                case "topic.message" -> {
                    Message m = new Message(this, f.string("deliveryId"), f.string("subscriptionId"), f.string("topic"),
                            f.string("topicIncarnation"), f.u64("topicSequence"), f.u64("replaced"),
                            f.bytes("payload"), artifactsOf(f), f.string("stale", null));
                    subscriptions.computeIfAbsent(m.subscriptionId(), id -> new BusSubscription(this, id, m.topic(), null))
                            .inbox.add(m);
                }
                case "rpc.request" -> {
                    Request r = new Request(f.string("deliveryId"), f.string("callId"), f.string("caller"),
                            f.string("target"), f.string("serviceIncarnation"), f.string("method"), f.bytes("payload"),
                            artifactsOf(f), this);
                    Consumer<Request> h = services.get(r.target());
                    if (h != null) {
                        dispatcher.execute(() -> h.accept(r));
                    }
                }
                case "rpc.result" -> {
                    CompletableFuture<CallResult> c = calls.remove(f.string("callId"));
                    CallResult r = new CallResult(f.string("callId"), f.string("deliveryId"), f.string("responder"),
                            f.string("serviceIncarnation"), f.bytes("outcome"), artifactsOf(f), null, this);
                    if (c != null) {
                        c.complete(r);
                    }
                }
                case "call.failed" -> {
                    CompletableFuture<CallResult> c = calls.remove(f.string("callId"));
                    BusError code = BusError.byWireName(f.string("code"));
                    BusException why = new BusException(code == null ? BusError.ROUTER_LOST : code,
                            f.string("message", "the call failed"),
                            Dispatch.byWireName(f.string("dispatch", "unknown")));
                    if (c != null) {
                        c.complete(new CallResult(f.string("callId"), null, null, f.string("serviceIncarnation", null),
                                new byte[0], List.of(), why, this));
                    }
                    notices.add(f);
                }
                case "subscription.closed" -> {
                    BusSubscription s = subscriptions.remove(f.string("subscriptionId"));
                    if (s != null) {
                        s.closedReason = f.string("reason");
                    }
                    notices.add(f);
                }
                case "connection.closing" -> {
                    notices.add(f);
                    BusError code = BusError.byWireName(f.string("code", "ROUTER_LOST"));
                    io.lose(new BusException(code == null ? BusError.ROUTER_LOST : code, "the bus closed the connection"));
                }
                default -> notices.add(f);
            }
        } catch (BusException e) {
            notices.add(BusFields.of().put("malformed", String.valueOf(d.command())).put("error", e.getMessage()));
        }
    }

    @Override
    public void close() {
        io.close();
        dispatcher.shutdownNow();
    }
}
