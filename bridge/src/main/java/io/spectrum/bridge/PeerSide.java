package io.spectrum.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spectrum.client.Delivery;
import io.spectrum.client.Follower;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Reply;
import io.spectrum.client.ValueFormat;
import io.spectrum.client.ValueLine;
import io.spectrum.client.ValueText;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.AccessMask;
import io.spectrum.wire.StaleReason;
import io.spectrum.wire.WireError;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The peer side of the bridge, on its own thread, the only one touching the {@link PeerClient}:
 * walks the peer's tree ({@link io.spectrum.client.TreeWalk}) and publishes every vertex it finds,
 * follows the peer from the root ({@link Follower}, as the CLI's {@code sub} does: the written
 * vertex's path and the node's stamp, the subscription re-appended when the peer lost it, and then
 * the tree is walked again), turns each delivery into a state message (a purge into a cleared
 * retained message), and
 * applies the {@code …/set} writes the broker side handed over, through the peer as remote FWD
 * writes (the peer's gates and declarations decide; refusals go to {@code …/set/error}). It also
 * says whether each board is available ({@link BoardPresence}, {@code spectrum/<host>/<board>/$online})
 * and keeps a declared vertex's last value, marked stale with a reason, where the node deleted it.
 * Everything it produces goes into the {@link Outbox}, which never blocks.
 */
final class PeerSide implements Runnable {
    static final String ROUTE = "/mqtt/sub";
    private static final long CHECK_NANOS = 3_000_000_000L;
    private static final int WALK_DEPTH = 16;
    private static final int MAX_WRITES = 1024;
    /**
     * The largest {@code …/set} payload taken at all, checked on arrival: the queue of waiting writes
     * holds at most {@link #MAX_WRITES} of them. Below it, each vertex's own bound applies
     * ({@link #payloadBound}).
     */
    static final int MAX_SET_BYTES = 8192;
    /** How much of a refused request its error message echoes. */
    private static final int ECHO = 200;
    /** The reason of a declared value kept where the node deleted it. */
    static final String DELETED = "the node deleted it (purged after its stale grace, or cleared); the last value is kept";
    /** The reason of every value while the bridge's peer does not answer. */
    static final String PEER_SILENT = "the bridge's peer does not answer";

    private final PeerClient client;
    private final BridgeOptions options;
    private final Topics topics;
    private final Outbox outbox;
    private final Discovery discovery;
    private final Consumer<String> notes;
    private final ArrayBlockingQueue<SetRequest> writes = new ArrayBlockingQueue<>(MAX_WRITES);
    private final Set<String> announced = new HashSet<>();
    private final Map<String, Last> last = new HashMap<>();
    private final BoardPresence presence = new BoardPresence();
    private final AtomicLong values = new AtomicLong();
    private final AtomicLong writesDone = new AtomicLong();
    private final AtomicLong writesRefused = new AtomicLong();
    private Follower follower;
    private volatile boolean running = true;
    private volatile boolean subscribed;

    private record SetRequest(String topic, byte[] payload) { }

    /** A published vertex's latest value, kept to publish it again marked stale. */
    private record Last(byte[] tlv, long seq, long origin) { }

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
        if (!topics.isSet(topic)) {
            return; // another topic under our prefix (a state or an error someone else published): not a request
        }
        String path = topics.setPath(topic);
        if (payload.length > MAX_SET_BYTES) {
            refuse(topic, path, WireError.SCHEMA_TYPE_MISMATCH, "the payload is " + payload.length + " bytes; a set takes at most "
                    + MAX_SET_BYTES + " (the value as text, or {\"value\": …})", payload);
            return;
        }
        if (path == null) {
            refuse(topic, null, WireError.PATH_INVALID, topic + " names no vertex; publish to " + topics.state("/BOARD/PATH")
                    + Topics.SET + " (a vertex's state topic + /set)", payload);
            return;
        }
        if (!writes.offer(new SetRequest(topic, payload))) {
            refuse(topic, path, WireError.FLOW_BACKPRESSURE, "too many writes waiting for the peer (" + MAX_WRITES
                    + "); send it again later", payload);
        }
    }

    @Override
    public void run() {
        follower = new Follower(client); // on this thread: it takes the client's deliveries
        boolean walked = false;
        long nextCheck = client.clock().nanoTime();
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
            if (!follower.gaps().isEmpty()) { // the peer dropped the subscription (it reaped us) and it was appended again
                notes.accept("mqtt: the peer had dropped the bridge's subscription; values published meanwhile were missed, "
                        + "so every value is published stale until it is read again");
                staleAll(StaleReason.NOT_FOLLOWED);
                walked = false; // read every value afresh
            }
            drainWrites();
            if (subscribed && client.clock().nanoTime() - nextCheck >= 0) {
                if (follower.verify() > 0) { // a slot the peer lost (it restarted) is appended again
                    walked = false; // the peer came back: walk again, its tree (and declarations) may differ
                }
                if (follower.peerAnswered() != presence.peer()) {
                    presence.peer(follower.peerAnswered());
                    if (presence.peer()) {
                        walked = false; // answering again: read every value afresh
                    } else {
                        notes.accept("mqtt: the peer does not answer; its values are published stale and its boards unavailable");
                        staleAll(PEER_SILENT);
                    }
                }
                tellPresence();
                nextCheck = client.clock().nanoTime() + CHECK_NANOS;
            } else if (!subscribed) {
                client.pumpFor(Duration.ofMillis(500)); // the peer does not answer yet: try again soon
            }
        }
    }

    private void subscribe() {
        Reply r = follower.follow("/", ROUTE);
        if (r.ok()) {
            subscribed = true;
            notes.accept("mqtt: following the peer's tree from /");
        } else if (r.code() != WireError.FLOW_TIMEOUT) {
            notes.accept("mqtt: the peer refused the subscription at /: " + WireError.identity(r.code()));
            running = false;
        }
    }

    private void walk() {
        client.walk("/", WALK_DEPTH, v -> {
            if (v.value().ok() && v.value().value() != null && v.value().value().length > 0) {
                emit(v.path(), v.value().value(), -1, false, null, 0);
            } else if (discovery != null && topics.state(v.path()) != null && options.published(v.path())) {
                announce(v.path(), declaration(v.path())); // declared, no value yet: Home Assistant still learns of it
            }
            drainDeliveries(); // keep deliveries flowing during a long walk
        });
        tellPresence();
    }

    private void drainDeliveries() {
        for (Follower.Sample x = follower.next(); x != null; x = follower.next()) {
            Delivery d = x.delivery();
            if (d.deleted()) {
                deleted(x.path(), d.stamped() ? d.seq() : -1);
                continue;
            }
            emit(x.path(), d.value(), d.stamped() ? d.seq() : -1, x.stale(), x.reason(), d.origin());
        }
        tellPresence();
    }

    /**
     * The node deleted {@code path} (a purge, or a notifying clear). A declared vertex holds its
     * board's state (its value outlives whoever wrote it): its last value stays retained, marked
     * stale with the reason, never an empty payload. An undeclared one's retained message is
     * cleared and forgotten.
     */
    private void deleted(String path, long seq) {
        String topic = topics.state(path);
        if (topic == null || !options.published(path)) {
            return;
        }
        Last l = last.get(path);
        if (l != null && declaration(path) != null) {
            emit(path, l.tlv(), seq >= 0 ? seq : l.seq(), true, DELETED, l.origin());
            return;
        }
        last.remove(path);
        outbox.offer(Outgoing.clear(topic));
    }

    /** Every value published so far again, marked stale with {@code reason}. */
    private void staleAll(String reason) {
        for (Map.Entry<String, Last> e : new java.util.ArrayList<>(last.entrySet())) {
            emit(e.getKey(), e.getValue().tlv(), e.getValue().seq(), true, reason, e.getValue().origin());
        }
    }

    /** Publishes each board's availability where it changed (retained {@code true} / {@code false}). */
    private void tellPresence() {
        for (Map.Entry<String, Boolean> c : presence.changes().entrySet()) {
            outbox.offer(Outgoing.state(topics.boardOnline(c.getKey()),
                    (c.getValue() ? "true" : "false").getBytes(StandardCharsets.US_ASCII), -1, false));
        }
    }

    /**
     * One vertex value towards the broker (JSON or raw TLV), and its discovery config the first time.
     * {@code seq} is the node's stamp (-1: none, a value read by the walk); a stale value carries
     * {@code reason}; {@code origin} is the value's origin time from the stamp (ms, 0: none), the
     * payload's {@code origin} (docs/mqtt.md).
     */
    private void emit(String path, byte[] tlv, long seq, boolean stale, String reason, long origin) {
        String topic = topics.state(path);
        if (topic == null || tlv == null || !options.published(path)) {
            return;
        }
        last.put(path, new Last(tlv, seq, origin));
        presence.vertex(path, stale);
        VertexSchema schema = declaration(path);
        byte[] payload;
        if (options.raw()) {
            payload = tlv;
        } else {
            payload = json(payload(path, ValueFormat.render(tlv, schema), seq, stale, reason, origin, topics.host()));
        }
        outbox.offer(Outgoing.state(topic, payload, seq, stale));
        values.incrementAndGet();
        if (discovery != null) {
            announce(path, schema);
        }
    }

    /**
     * The JSON state payload of one value (docs/mqtt.md "Payloads"): the value line
     * ({@link ValueLine}), the node's stamp when {@code seq >= 0}, else a stale mark with its reason
     * when the bridge knows the value is not current, and {@code publisher}.
     */
    static ObjectNode payload(String path, ValueText v, long seq, boolean stale, String reason, long origin, String publisher) {
        ObjectNode o = JsonLines.line(path);
        ValueLine.Fields f = JsonLines.fields(o);
        ValueLine.value(f, v);
        if (seq >= 0) {
            ValueLine.stamp(f, seq, stale, reason, origin);
        } else if (stale) {
            ValueLine.staleWithoutStamp(f, reason); // no stamp of the node's, but the bridge knows it is not current
        }
        o.put("publisher", publisher);
        return o;
    }

    /** The discovery configs of {@code path}, once per path (with the removal of an older component's). */
    private void announce(String path, VertexSchema schema) {
        if (schema == null || !announced.add(path)) {
            return;
        }
        for (Outgoing config : discovery.configs(path, schema, options.writes(path) && schema.allows(AccessMask.WRITE),
                options.raw())) {
            outbox.offer(config);
        }
    }

    private VertexSchema declaration(String path) {
        return follower.schema(path);
    }

    private void drainWrites() {
        for (SetRequest w = writes.poll(); w != null; w = writes.poll()) {
            apply(w);
        }
    }

    /** Applies one {@code …/set}: allowed here, parsed by the vertex's declaration, written through the peer. */
    private void apply(SetRequest w) {
        String path = topics.setPath(w.topic());
        if (!options.writes(path)) {
            refuse(w.topic(), path, WireError.ACCESS_DENIED, path + " is not writable over MQTT: the bridge takes writes only "
                    + "for paths named by --mqtt-writable GLOB", w.payload());
            return;
        }
        VertexSchema schema = declaration(path);
        if (schema == null) {
            refuse(w.topic(), path, WireError.ACCESS_DENIED, path + " has no declaration, so it is not writable over MQTT",
                    w.payload());
            return;
        }
        int bound = payloadBound(schema);
        if (w.payload().length > bound) {
            refuse(w.topic(), path, WireError.SCHEMA_TYPE_MISMATCH, "the payload is " + w.payload().length + " bytes; a value of "
                    + path + " is at most " + bound + " bytes as text or as {\"value\": …}", w.payload());
            return;
        }
        String text;
        try {
            text = text(w.payload());
        } catch (IllegalArgumentException e) {
            refuse(w.topic(), path, WireError.SCHEMA_TYPE_MISMATCH, e.getMessage(), w.payload());
            return;
        }
        ValueFormat.Parsed parsed = ValueFormat.parse(text, schema);
        if (!parsed.ok()) {
            refuse(w.topic(), path, WireError.SCHEMA_TYPE_MISMATCH, path + ": " + parsed.reason(), w.payload());
            return;
        }
        Reply r;
        try {
            r = client.write(path, parsed.tlv());
        } catch (IllegalArgumentException e) {
            refuse(w.topic(), path, WireError.PATH_INVALID, "'" + path + "' is not a path", w.payload());
            return;
        }
        if (r.ok()) {
            writesDone.incrementAndGet();
        } else {
            refuse(w.topic(), path, r.code(), "the peer refused the write of " + path + ": " + WireError.identity(r.code()),
                    w.payload());
        }
    }

    /**
     * The largest {@code …/set} payload a vertex takes, checked before the payload is decoded or
     * parsed: its longest value text ({@link ValueFormat#maxTextLength}), as JSON at worst six
     * characters per character ({@code \u0000}), plus 64 for {@code {"value": …}} and spaces.
     */
    static int payloadBound(VertexSchema schema) {
        return Math.min(MAX_SET_BYTES, ValueFormat.maxTextLength(schema) * 6 + 64);
    }

    /**
     * The value text of a {@code …/set} payload: the payload itself, or the {@code value} of a JSON
     * object (a number or a text).
     *
     * @throws IllegalArgumentException when it starts with {@code {} but is no JSON object with such a
     *     {@code value}, with the one line to answer
     */
    static String text(byte[] payload) {
        String s = new String(payload, StandardCharsets.UTF_8).strip();
        if (s.startsWith("{")) {
            JsonNode n;
            try {
                n = JsonLines.JSON.readTree(s);
            } catch (IOException e) {
                n = null;
            }
            JsonNode v = n != null && n.isObject() ? n.get("value") : null;
            if (v == null || !(v.isNumber() || v.isTextual())) {
                throw new IllegalArgumentException("the payload starts with { but is not a JSON object with a number or text "
                        + "\"value\"; send the value as text (23.5) or as {\"value\": 23.5}");
            }
            return v.asText();
        }
        return s;
    }

    /** Answers the write request {@code setTopic} on its error topic ({@link Topics#setError}). */
    private void refuse(String setTopic, String path, int code, String message, byte[] payload) {
        writesRefused.incrementAndGet();
        ObjectNode o = JsonLines.line(path);
        o.put("ok", false);
        o.put("error", WireError.identity(code));
        o.put("code", code);
        o.put("message", message);
        String request = new String(payload, 0, Math.min(payload.length, ECHO), StandardCharsets.UTF_8);
        o.put("request", payload.length > ECHO ? request + "…" : request);
        o.put("publisher", topics.host());
        outbox.offer(Outgoing.event(Topics.setError(setTopic), json(o)));
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
