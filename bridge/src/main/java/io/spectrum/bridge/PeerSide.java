package io.spectrum.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spectrum.client.Delivery;
import io.spectrum.client.HeldSubscriptions;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Reply;
import io.spectrum.client.Subscribed;
import io.spectrum.client.ValueFormat;
import io.spectrum.client.ValueText;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.AccessMask;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.Names;
import io.spectrum.wire.WireError;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The peer side of the bridge, on its own thread, the only one touching the {@link PeerClient}:
 * walks the peer's tree ({@link io.spectrum.client.TreeWalk}) and publishes every vertex it finds,
 * holds one subscription at the root asking for the written vertex's path and the node's stamp
 * ({@link HeldSubscriptions}: re-appended when the peer lost it, and then the tree is walked
 * again), turns each delivery into a state message (a purge into a cleared retained message), and
 * applies the {@code …/set} writes the broker side handed over, through the peer as remote FWD
 * writes (the peer's gates and declarations decide; refusals go to {@code …/set/error}). Everything
 * it produces goes into the {@link Outbox}, which never blocks.
 */
final class PeerSide implements Runnable {
    static final String ROUTE = "/mqtt/sub";
    private static final int TOPIC = Names.TOPIC_STAMP | Names.TOPIC_WITH_PATH;
    private static final long CHECK_NANOS = 3_000_000_000L;
    private static final int WALK_DEPTH = 16;
    private static final int MAX_WRITES = 1024;

    private final PeerClient client;
    private final BridgeOptions options;
    private final Topics topics;
    private final Outbox outbox;
    private final Discovery discovery;
    private final Consumer<String> notes;
    private final ArrayDeque<Delivery> deliveries = new ArrayDeque<>();
    private final ArrayBlockingQueue<SetRequest> writes = new ArrayBlockingQueue<>(MAX_WRITES);
    private final Set<String> announced = new HashSet<>();
    private final AtomicLong values = new AtomicLong();
    private final AtomicLong writesDone = new AtomicLong();
    private final AtomicLong writesRefused = new AtomicLong();
    private HeldSubscriptions held;
    private volatile boolean running = true;
    private volatile boolean subscribed;

    private record SetRequest(String topic, byte[] payload) { }

    PeerSide(PeerClient client, BridgeOptions options, Topics topics, Outbox outbox, Consumer<String> notes) {
        this.client = client;
        this.options = options;
        this.topics = topics;
        this.outbox = outbox;
        this.notes = notes;
        this.discovery = options.discovery() ? new Discovery(topics) : null;
    }

    /** A {@code …/set} message from the broker (Paho's thread): queued for this side's thread, never applied there. */
    void onSet(String topic, byte[] payload) {
        String path = topics.setPath(topic);
        if (path == null) {
            return; // another topic under our prefix (a state topic someone else wrote): not a write
        }
        if (!writes.offer(new SetRequest(topic, payload))) {
            refuse(path, WireError.FLOW_BACKPRESSURE, "too many writes waiting for the peer (" + MAX_WRITES + ")", payload);
        }
    }

    @Override
    public void run() {
        client.onDelivery(deliveries::add);
        held = new HeldSubscriptions(client);
        long restoredSeen = 0;
        boolean walked = false;
        long nextCheck = System.nanoTime();
        while (running && !Thread.currentThread().isInterrupted()) {
            if (!subscribed) {
                subscribe();
            }
            if (subscribed && !walked) {
                walk(); // after the subscription: a change during the walk is delivered, not lost
                walked = true;
            }
            client.pumpFor(Duration.ofMillis(2));
            drainDeliveries();
            drainWrites();
            if (subscribed && System.nanoTime() - nextCheck >= 0) {
                held.verify(); // a slot the peer lost (it restarted) is appended again
                if (held.restored() != restoredSeen) {
                    restoredSeen = held.restored();
                    client.forgetDeclarations();
                    walked = false; // the peer came back: walk again, its tree may differ
                }
                nextCheck = System.nanoTime() + CHECK_NANOS;
            } else if (!subscribed) {
                client.pumpFor(Duration.ofMillis(500)); // the peer does not answer yet: try again soon
            }
        }
    }

    private void subscribe() {
        Subscribed s = held.subscribe("/", ROUTE, DeliveryPolicy.DURABILITY_REQUEST, TOPIC);
        if (s.reply().ok()) {
            subscribed = true;
            notes.accept("mqtt: following the peer's tree from /");
        } else if (s.reply().code() != WireError.FLOW_TIMEOUT) {
            notes.accept("mqtt: the peer refused the subscription at /: " + WireError.identity(s.reply().code()));
            running = false;
        }
    }

    private void walk() {
        client.walk("/", WALK_DEPTH, v -> {
            if (v.value().ok() && v.value().value() != null && v.value().value().length > 0) {
                emit(v.path(), v.value().value(), -1, false, null);
            }
            drainDeliveries(); // keep deliveries flowing during a long walk
        });
    }

    private void drainDeliveries() {
        for (Delivery d = deliveries.poll(); d != null; d = deliveries.poll()) {
            if (!d.srcEmpty()) {
                continue;
            }
            String path = d.source() != null ? d.source() : "/";
            if (d.deleted()) {
                String topic = topics.state(path);
                if (topic != null && options.published(path)) {
                    outbox.offer(Outgoing.clear(topic)); // purge: the retained message goes too
                }
                continue;
            }
            emit(path, d.value(), d.stamped() ? d.seq() : -1, d.stamped() && d.stale(), d.reason());
        }
    }

    /** One vertex value towards the broker (JSON or raw TLV), and its discovery config the first time. */
    private void emit(String path, byte[] tlv, long seq, boolean stale, String reason) {
        String topic = topics.state(path);
        if (topic == null || tlv == null || !options.published(path)) {
            return;
        }
        VertexSchema schema = declaration(path);
        byte[] payload;
        if (options.raw()) {
            payload = tlv;
        } else {
            ValueText v = ValueFormat.render(tlv, schema);
            ObjectNode o = ValueJson.line(path);
            ValueJson.value(o, v);
            if (seq >= 0) {
                ValueJson.stamp(o, seq, stale, reason);
            }
            o.put("publisher", topics.host());
            payload = json(o);
        }
        outbox.offer(Outgoing.state(topic, payload, seq, stale));
        values.incrementAndGet();
        if (discovery != null && announced.add(path)) {
            Outgoing config = discovery.config(path, schema, options.writes(path)
                    && schema != null && schema.allows(AccessMask.WRITE), options.raw());
            if (config != null) {
                outbox.offer(config);
            }
        }
    }

    private VertexSchema declaration(String path) {
        try {
            return client.declaration(path);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private void drainWrites() {
        for (SetRequest w = writes.poll(); w != null; w = writes.poll()) {
            apply(w);
        }
    }

    /** Applies one {@code …/set}: allowed here, parsed by the vertex's declaration, written through the peer. */
    private void apply(SetRequest w) {
        String path = topics.setPath(w.topic());
        String text = text(w.payload());
        if (!options.writes(path)) {
            refuse(path, WireError.ACCESS_DENIED, path + " is not writable over MQTT (not named by --mqtt-writable)", w.payload());
            return;
        }
        VertexSchema schema = declaration(path);
        if (schema == null) {
            refuse(path, WireError.ACCESS_DENIED, path + " has no declaration, so it is not writable over MQTT", w.payload());
            return;
        }
        ValueFormat.Parsed parsed = ValueFormat.parse(text, schema);
        if (!parsed.ok()) {
            refuse(path, WireError.SCHEMA_TYPE_MISMATCH, path + ": " + parsed.reason(), w.payload());
            return;
        }
        Reply r;
        try {
            r = client.write(path, parsed.tlv());
        } catch (IllegalArgumentException e) {
            refuse(path, WireError.PATH_INVALID, "'" + path + "' is not a path", w.payload());
            return;
        }
        if (r.ok()) {
            writesDone.incrementAndGet();
        } else {
            refuse(path, r.code(), "the peer refused the write of " + path + ": " + WireError.identity(r.code()), w.payload());
        }
    }

    /** The value text of a {@code …/set} payload: the payload itself, or the {@code value} of a JSON object. */
    static String text(byte[] payload) {
        String s = new String(payload, StandardCharsets.UTF_8).strip();
        if (s.startsWith("{")) {
            try {
                JsonNode n = ValueJson.JSON.readTree(s).get("value");
                if (n != null && !n.isNull()) {
                    return n.asText();
                }
            } catch (IOException e) {
                return s; // not JSON after all: the parser says why
            }
        }
        return s;
    }

    private void refuse(String path, int code, String message, byte[] payload) {
        writesRefused.incrementAndGet();
        ObjectNode o = ValueJson.line(path);
        o.put("ok", false);
        o.put("error", WireError.identity(code));
        o.put("code", code);
        o.put("message", message);
        o.put("request", new String(payload, StandardCharsets.UTF_8));
        o.put("publisher", topics.host());
        outbox.offer(Outgoing.event(topics.state(path) + Topics.SET + Topics.ERROR, json(o)));
    }

    private static byte[] json(ObjectNode o) {
        return o.toString().getBytes(StandardCharsets.UTF_8);
    }

    boolean subscribed() {
        return subscribed;
    }

    long values() {
        return values.get();
    }

    long writesDone() {
        return writesDone.get();
    }

    long writesRefused() {
        return writesRefused.get();
    }

    void stop() {
        running = false;
    }
}
