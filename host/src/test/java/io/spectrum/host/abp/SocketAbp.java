package io.spectrum.host.abp;

import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.bus.server.BusHost;
import io.spectrum.bus.server.BusServer;
import io.spectrum.bus.store.StoreConfig;
import io.spectrum.client.Delivery;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Reply;
import io.spectrum.client.SubscriberList;
import io.spectrum.client.TreeWalk;
import io.spectrum.client.bus.BusClient;
import io.spectrum.host.runtime.HostRuntime;
import io.spectrum.link.Link;
import io.spectrum.link.PeerListener;
import io.spectrum.link.local.InProcessLink;
import io.spectrum.link.local.LocalLink;
import io.spectrum.node.api.NodePath;
import io.spectrum.time.ManualClock;
import io.spectrum.time.SystemClock;
import io.spectrum.wide.Grants;
import io.spectrum.wide.TopicInfo;
import io.spectrum.wide.WideNode;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.Extensions;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Names;
import io.spectrum.wire.SettingsReader;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * ABP over the host bus's Unix socket: each connection is a {@link BusClient} whose node client
 * ({@link BusClient#node()}, a {@link PeerClient} riding the connection) talks to the WIDE node that
 * serves the bus's node door (docs/bus.md, "The host's node through the bus"). The node runs on a
 * thread of its own, polling the door, with the host's configuration ({@link HostRuntime#HOST_CONFIG})
 * on a {@link ManualClock}; the owner's calls run on that thread.
 *
 * <p>The mapping on the wire: publish is a FWD WRITE with op bit 6 ({@link FwdView#ACTIVITY}: the
 * active / idle notices, docs/extensions.md "Active / idle notices"), {@code retain: false} the
 * WRITE's announcement child with {@code spectrum.retain} 0 ({@link Extensions#announceNotRetained};
 * {@link PeerClient} has no call for it, so the child is appended to the value); subscribe is an
 * append to {@code :subscribers[]} with the durability bit and the topic stamp (with the written
 * vertex's path); unsubscribe clears the connection's slot, found by its route in
 * {@code :subscribers[]}; subscriber_count is the number of slots there; list is the client's tree
 * walk with a stamped READ of each vertex (its sequence and stale mark); a read is the stamped READ.
 * clear is the clearing WRITE ({@link PeerClient#clearValue}); a topic's last publisher and the sequence
 * of one without a value are in the stamp of a READ's answer ({@link Reply#publisher}). Not on the wire:
 * a value up to the 1 MiB payload cap (a FWD frame is at most 64 KiB) and two open connections of one
 * name (the bus gives a name to one connection at a time). A subscription to a topic that does not exist yet is an announcing
 * subscriber's append, which creates the path (docs/node.md, "Vertices a subscription created").
 */
final class SocketAbp implements AbpFabric {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final long GUARD_NANOS = 10_000_000_000L;
    private static final Duration QUIET = Duration.ofMillis(150);

    private final ManualClock clock = new ManualClock(0);
    /**
     * The host's node configuration (remote writes create their paths, subscriptions are served under
     * mounts, whose vertices' active / idle notices the host hears itself) on the manual clock.
     */
    private final WideNode node = new WideNode(HostRuntime.HOST_CONFIG.toBuilder().clock(clock).staleGraceNanos(GRACE)
            .build());
    private final InProcessLink door = BusServer.nodeDoorLink(9, BusLimits.defaults(), 64 * 1024, 1 << 20);
    private final ConcurrentLinkedQueue<FutureTask<?>> tasks = new ConcurrentLinkedQueue<>();
    private final AtomicLong peersDown = new AtomicLong();
    private final Thread nodeThread;
    private volatile boolean running = true;
    private final BusHost bus;
    private final LocalLink listener;
    private final UnixDomainSocketAddress socket;
    private final List<Session> sessions = new ArrayList<>();

    SocketAbp(Path tmp) throws Exception {
        clock.advanceMillis(5_000);
        if (node.attach(door) != WireError.OK) {
            throw new IllegalStateException("the door");
        }
        door.setPeerListener(new PeerListener() { // the node's own listener, counting the peers it saw go
            @Override
            public void onPeerUp(Link link, int peer) {
                node.onPeerUp(link, peer);
            }

            @Override
            public void onPeerDown(Link link, int peer) {
                node.onPeerDown(link, peer);
                peersDown.incrementAndGet();
            }
        });
        nodeThread = new Thread(this::serve, "abp-node");
        nodeThread.setDaemon(true);
        nodeThread.start();
        socket = UnixDomainSocketAddress.of(tmp.resolve("bus.sock"));
        listener = LocalLink.listen(2, socket, BusClient.linkConfig(), SystemClock.INSTANCE);
        bus = BusHost.start(StoreConfig.builder(tmp.resolve("store")).build(), BusLimits.defaults(),
                name -> Grants.open(), List.of(listener), door);
    }

    /** The node's thread: the owner's tasks, then the door. */
    private void serve() {
        while (running) {
            int n = 0;
            for (FutureTask<?> t; (t = tasks.poll()) != null; n++) {
                t.run();
            }
            n += node.poll();
            if (n == 0) {
                Thread.onSpinWait();
                Thread.yield();
            }
        }
    }

    /** Runs {@code c} on the node's thread and answers its result. */
    <T> T onNode(Callable<T> c) {
        FutureTask<T> t = new FutureTask<>(c);
        tasks.add(t);
        try {
            return t.get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("the node's thread: " + e, e);
        }
    }

    @Override
    public AbpSession connect(String name) {
        try {
            Session s = new Session(BusClient.connect(socket, name, TIMEOUT.toMillis()), sessions.size());
            sessions.add(s);
            return s;
        } catch (Exception e) {
            throw new AssertionError("connect " + name + ": " + e, e);
        }
    }

    @Override
    public void advance(long nanos) {
        onNode(() -> {
            clock.advanceNanos(nanos);
            node.tick();
            return null;
        });
    }

    @Override
    public int ownerWrite(String path, byte[] tlv) {
        return onNode(() -> node.write(NodePath.of(path), tlv, 0, tlv.length));
    }

    @Override
    public String lacks(Feature f) {
        return switch (f) {
            case CLEAR -> null; // the clearing WRITE
            case LIST_DETAIL -> null; // the stamped READ: seq (also of a topic without a value) and the last publisher
            case PAYLOAD_CAP -> "a FWD frame through the bus is at most 64 KiB: a 1 MiB value never reaches the node's cap";
            case SHARED_NAME -> "the bus gives a name to one open connection at a time (docs/bus.md, "
                    + "\"Reconnecting under the same name\"): C2 cannot register svc while C1 is open";
            case SUBSCRIBE_ABSENT -> null; // an announcing subscriber's append creates the path (docs/node.md)
        };
    }

    @Override
    public void close() {
        for (Session s : sessions) {
            s.bus.close();
        }
        bus.close();
        running = false;
        try {
            nodeThread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        node.close();
        door.close();
        listener.close();
    }


    private final class Session implements AbpSession {
        final BusClient bus;
        private final PeerClient client;
        private final List<String> deliveries = new ArrayList<>();
        private final List<String> notices = new ArrayList<>();
        private final FrameDecoder decoder = new FrameDecoder();
        private final TlvIndex idx = new TlvIndex(64, 8);
        private final SettingsReader settings = new SettingsReader();
        private boolean closed;
        /** Where this connection's deliveries come: its own, so its slot is told from another's by the route. */
        private final String routes;

        Session(BusClient bus, int n) {
            this.bus = bus;
            this.routes = "/abp" + n;
            this.client = bus.node();
            client.onDelivery(this::received);
            // the connection's hello to the node (libtracer's ping): it also names the peer, so the node
            // knows the name before a non-retained publish, whose own child carries none
            Reply caps = client.read(Names.CAPS_PATH);
            if (!caps.ok()) {
                throw new AssertionError("the node door: " + WireError.identity(caps.code()));
            }
        }

        private void received(Delivery d) {
            byte[] v = d.value();
            String notice = notice(v);
            if (notice != null) {
                notices.add(notice);
                return;
            }
            String path = d.source() != null ? d.source() : d.route().substring(routes.length());
            deliveries.add(AbpScenarios.line(path, v, d.seq(), d.stale(), d.deleted()));
        }

        /** The active / idle notice {@code v} as "path active|idle n", or null when it is none. */
        private String notice(byte[] v) {
            if (v == null || decoder.decode(v, 0, v.length, idx) != WireError.OK || idx.type(0) != TlvType.SETTINGS
                    || settings.wrap(idx, 0) != WireError.OK) {
                return null;
            }
            int a = settings.findValue(Names.ACTIVITY, 1);
            int p = settings.find(Names.ACTIVITY_PATH, TlvType.PATH, SettingsReader.ANY_WIDTH);
            int n = settings.findValue(Names.ACTIVITY_SUBSCRIBERS, 4);
            if (a == TlvIndex.NONE || p == TlvIndex.NONE || n == TlvIndex.NONE) {
                return null;
            }
            String path = NodePath.render(v, idx.bodyOffset(p), idx.bodyLength(p));
            return path + (idx.valueAsLong(a) == 1 ? " active " : " idle ") + idx.valueAsLong(n);
        }

        /** A topic's route here (the subscriber's side, not a node vertex). */
        private String route(String topic) {
            return routes + topic;
        }

        @Override
        public String identity() {
            return bus.clientId();
        }

        @Override
        public int publish(String topic, byte[] tlv, boolean retain) {
            byte[] payload = tlv;
            if (!retain) {
                byte[] child = new byte[64];
                TlvWriter w = new TlvWriter().wrap(child, 0, child.length);
                Extensions.announceNotRetained(w);
                payload = Arrays.copyOf(tlv, tlv.length + w.length());
                System.arraycopy(child, 0, payload, tlv.length, w.length());
            }
            return client.call(FwdView.OP_WRITE | FwdView.ACTIVITY, topic, null, payload).code();
        }

        @Override
        public int subscribe(String topic) {
            return client.subscribe(topic, route(topic), DeliveryPolicy.DURABILITY_REQUEST,
                    Names.TOPIC_STAMP | Names.TOPIC_WITH_PATH).code();
        }

        @Override
        public int unsubscribe(String topic) {
            SubscriberList slots = client.subscribers(topic);
            if (slots.reply().code() == WireError.PATH_NOT_FOUND) {
                return WireError.OK; // no such topic: nothing to end
            }
            if (!slots.ok()) {
                return slots.reply().code();
            }
            int i = slots.indexOf(route(topic));
            return i < 0 ? WireError.OK : client.clear(topic, i, -1).code();
        }

        @Override
        public int subscriberCount(String topic) {
            SubscriberList slots = client.subscribers(topic);
            if (slots.reply().code() == WireError.PATH_NOT_FOUND) {
                return 0;
            }
            if (!slots.ok()) {
                throw new AssertionError(topic + ":subscribers[] " + WireError.identity(slots.reply().code()));
            }
            return slots.subscribers();
        }

        @Override
        public List<TopicInfo> list(String prefix) {
            List<TopicInfo> out = new ArrayList<>();
            client.walk(prefix, 16, v -> {
                if (v.path().contains("/$")) {
                    return; // the node's own names are no topics
                }
                int subs = v.subscribers().ok() ? v.subscribers().subscribers() : 0;
                boolean hasValue = v.value().ok();
                if (hasValue || subs > 0) {
                    Reply r = client.readStamped(v.path()); // a WIDE node's stamp names the last publisher
                    out.add(new TopicInfo(v.path(), subs, hasValue, Math.max(0, r.seq()), r.publisher(), r.stale()));
                }
            });
            out.sort(Comparator.comparing(TopicInfo::path));
            return out;
        }

        @Override
        public int clear(String topic, boolean notify) {
            return client.clearValue(topic, notify).code(); // the clearing WRITE (docs/extensions.md, "spectrum.clear")
        }

        @Override
        public Read read(String topic) {
            Reply r = client.readStamped(topic);
            return r.ok() ? new Read(WireError.OK, r.value(), r.seq(), r.stale()) : new Read(r.code(), null, 0, r.stale());
        }

        @Override
        public List<String> deliveries() {
            return List.copyOf(deliveries);
        }

        @Override
        public List<String> notices() {
            return List.copyOf(notices);
        }

        @Override
        public void pumpUntil(BooleanSupplier done, String what) {
            if (!client.pumpUntil(done, TIMEOUT)) {
                throw new AssertionError("never happened: " + what + "; deliveries " + deliveries + ", notices " + notices);
            }
        }

        @Override
        public void quiet() {
            client.pumpFor(QUIET);
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            long before = peersDown.get();
            bus.close();
            long guard = System.nanoTime() + GUARD_NANOS;
            while (peersDown.get() == before) { // a guard against a hang, not a timing assertion
                if (System.nanoTime() - guard > 0) {
                    throw new AssertionError("the node never saw " + bus.clientId() + " go");
                }
                Thread.onSpinWait();
                Thread.yield();
            }
        }
    }
}
