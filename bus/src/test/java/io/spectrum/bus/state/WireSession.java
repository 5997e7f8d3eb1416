package io.spectrum.bus.state;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.wire.BusError;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import io.spectrum.bus.protocol.ArtifactRef;
import io.spectrum.bus.protocol.Attachment;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusFields;
import io.spectrum.bus.protocol.BusFrames;
import io.spectrum.bus.protocol.BusMessage;
import io.spectrum.bus.protocol.BusWire;
import io.spectrum.bus.protocol.ClientIdentity;
import io.spectrum.bus.protocol.Retention;
import io.spectrum.bus.protocol.SubscriptionMode;
import io.spectrum.bus.server.BusServer;
import io.spectrum.bus.store.StagedArtifact;
import io.spectrum.link.local.InProcessLink;

/**
 * A {@link BusSession} over the wire, for the bus tests: every operation is a request frame to a
 * {@link BusServer} over a real transport (the in-process link or a Unix socket), answered by the
 * server's reply frame, and {@link #poll()} asks the server to hand this connection exactly one
 * message, which arrives as an event frame. The server runs on the test's thread in pull mode, so
 * a test sees the same message order and the same credits over the wire as on the bus directly.
 */
final class WireSession implements BusSession {
    /** One client end of a transport: sends frames; {@link #receive} runs the server and the transport once. */
    interface End {
        /** Sends a frame; a {@link io.spectrum.wire.WireError} code (TRANSPORT_DOWN once the bus closed it). */
        int send(byte[] frame);

        /** The frames that arrived after the server and the transport ran once. */
        List<byte[]> receive();

        void close();
    }

    private final BusServer server;
    private final End end;
    private final ArrayDeque<BusMessage> events = new ArrayDeque<>();
    private long requests;
    private boolean closed;
    private ClientIdentity identity;

    WireSession(BusServer server, End end) throws BusException {
        this.server = server;
        this.end = end;
        BusFields hello = request("bus.hello", BusFields.of());
        identity = new ClientIdentity(hello.string("clientId"), hello.u64("clientIncarnation"), hello.bool("anonymous"));
    }

    private BusFields request(String command, BusFields body) throws BusException {
        if (closed) {
            throw new BusException(BusError.ROUTER_LOST, "this connection is closed");
        }
        String route = "/t/r/" + (++requests);
        if (end.send(BusFrames.request(command, route, body)) != io.spectrum.wire.WireError.OK) {
            throw new BusException(BusError.ROUTER_LOST, "the bus closed this connection");
        }
        for (long until = System.nanoTime() + 5_000_000_000L; System.nanoTime() - until < 0; ) {
            for (byte[] f : end.receive()) {
                BusFrames.Decoded d = BusFrames.decode(f, 0, f.length);
                if (d.isReply()) {
                    if (!d.dst().equals(route)) {
                        throw new AssertionError("a reply to " + d.dst() + " while waiting for " + route);
                    }
                    if (d.error() != null) {
                        throw d.error();
                    }
                    return d.fields();
                }
                events.add(BusWire.message(d.command(), d.fields()));
            }
        }
        throw new AssertionError("no reply to " + command);
    }

    private static BusFields attach(BusFields f, List<Attachment> attachments) {
        if (attachments == null) {
            return f;
        }
        List<BusFields> out = new ArrayList<>();
        for (Attachment a : attachments) {
            // a null attachment travels as an empty record, which the server refuses
            out.add(a == null ? BusFields.of() : BusWire.attachment(a.name(), a.ref(), a.ownerId()));
        }
        return f.putRecords("attachments", out);
    }

    /** Puts {@code v} when it is not null (a null argument is a missing field, refused by the server). */
    private static BusFields opt(BusFields f, String k, String v) {
        return v == null ? f : f.put(k, v);
    }

    /** A null id travels as the empty id, which the server refuses. */
    private static List<String> ids(List<String> ids) {
        List<String> out = new ArrayList<>(ids.size());
        for (String id : ids) {
            out.add(id == null ? "" : id);
        }
        return out;
    }

    private static BusFields ref(BusFields f, ArtifactRef ref) {
        return ref == null ? f : f.putRecord("ref", BusWire.ref(ref));
    }

    private static BusFields opt(BusFields f, String k, byte[] v) {
        return v == null ? f : f.putBytes(k, v);
    }

    @Override
    public ClientIdentity identity() {
        return identity;
    }

    @Override
    public boolean isOpen() {
        BusConnection c = server.connectionOf(identity.clientId());
        return c != null && c.isOpen();
    }

    @Override
    public Replies.Declared declare(String name, Retention retained) throws BusException {
        BusFields r = request("topic.declare", opt(opt(BusFields.of(), "name", name), "retained",
                retained == null ? null : retained.wireName()));
        return new Replies.Declared(r.bool("declared"), r.string("topicIncarnation"));
    }

    @Override
    public Replies.Subscribed subscribe(String topic, SubscriptionMode mode, int maxQueued, int maxInFlight,
            boolean replayLatest) throws BusException {
        BusFields r = request("subscribe", opt(opt(BusFields.of(), "topic", topic), "mode",
                mode == null ? null : mode.wireName()).put("maxQueued", maxQueued).put("maxInFlight", maxInFlight)
                .put("replayLatest", replayLatest));
        return new Replies.Subscribed(r.string("subscriptionId"), r.string("topicIncarnation"));
    }

    @Override
    public boolean unsubscribe(String subscriptionId) throws BusException {
        return request("unsubscribe", opt(BusFields.of(), "subscriptionId", subscriptionId)).bool("removed");
    }

    @Override
    public Replies.Published publish(String topic, byte[] payload, List<Attachment> attachments) throws BusException {
        BusFields r = request("publish", attach(opt(opt(BusFields.of(), "topic", topic), "payload", payload), attachments));
        return new Replies.Published(r.u64("topicSequence"), r.u64("subscribers"), r.u64("replaced"));
    }

    @Override
    public Replies.Published publish(String topic, byte[] payload, List<Attachment> attachments, boolean retain)
            throws BusException {
        BusFields r = request("publish", attach(opt(opt(BusFields.of(), "topic", topic), "payload", payload), attachments)
                .put("retain", retain));
        return new Replies.Published(r.u64("topicSequence"), r.u64("subscribers"), r.u64("replaced"));
    }

    @Override
    public boolean clear(String topic) throws BusException {
        return request("topic.clear", opt(BusFields.of(), "name", topic)).bool("cleared");
    }

    @Override
    public boolean delete(String topic) throws BusException {
        return request("topic.delete", opt(BusFields.of(), "name", topic)).bool("deleted");
    }

    @Override
    public long consumed(List<String> deliveryIds) throws BusException {
        return request("delivery.consumed", deliveryIds == null ? BusFields.of()
                : BusFields.of().putStrings("deliveryIds", ids(deliveryIds))).u64("released");
    }

    @Override
    public Replies.Allocated allocate(long byteLength, String contentType) throws BusException {
        BusFields r = request("artifact.allocate", opt(BusFields.of().put("byteLength", byteLength), "contentType",
                contentType));
        return new Replies.Allocated(r.string("ownerId"), new StagedArtifact(r.u64("artifactId"), r.u64("generation"),
                byteLength, contentType, r.string("writeLocation")));
    }

    @Override
    public Replies.Sealed seal(long artifactId, long generation, String ownerId, String digest) throws BusException {
        BusFields r = request("artifact.seal", opt(opt(BusFields.of().put("artifactId", artifactId)
                .put("generation", generation), "ownerId", ownerId), "digest", digest));
        return new Replies.Sealed(BusWire.ref(r.record("ref")), r.string("ownerId"));
    }

    @Override
    public String open(ArtifactRef ref, String ownerId) throws BusException {
        return request("artifact.open", opt(ref(BusFields.of(), ref), "ownerId", ownerId))
                .string("readLocation");
    }

    @Override
    public String retain(ArtifactRef ref, String ownerId) throws BusException {
        return request("artifact.retain", opt(ref(BusFields.of(), ref), "ownerId", ownerId))
                .string("ownerId");
    }

    @Override
    public long release(List<String> ownerIds) throws BusException {
        return request("artifact.release", ownerIds == null ? BusFields.of()
                : BusFields.of().putStrings("ownerIds", ids(ownerIds))).u64("released");
    }

    @Override
    public Replies.Registered register(String name, int maxQueued, int maxInFlight) throws BusException {
        return new Replies.Registered(request("service.register", opt(BusFields.of(), "name", name)
                .put("maxQueued", maxQueued).put("maxInFlight", maxInFlight)).string("serviceIncarnation"));
    }

    @Override
    public boolean unregister(String name, String serviceIncarnation) throws BusException {
        return request("service.unregister", opt(opt(BusFields.of(), "name", name), "serviceIncarnation",
                serviceIncarnation)).bool("removed");
    }

    @Override
    public Replies.CallAccepted call(String callId, String target, String expectedIncarnation, String method,
            byte[] payload, List<Attachment> attachments) throws BusException {
        BusFields f = opt(opt(opt(opt(opt(BusFields.of(), "callId", callId), "target", target), "expectedIncarnation",
                expectedIncarnation), "method", method), "payload", payload);
        BusFields r = request("rpc.call", attach(f, attachments));
        return new Replies.CallAccepted(r.bool("accepted"), r.string("serviceIncarnation"));
    }

    @Override
    public boolean reply(String callId, String requestDeliveryId, byte[] outcome, List<Attachment> attachments)
            throws BusException {
        BusFields f = opt(opt(opt(BusFields.of(), "callId", callId), "requestDeliveryId", requestDeliveryId), "outcome",
                outcome);
        return request("rpc.reply", attach(f, attachments)).bool("routed");
    }

    @Override
    public boolean releaseResponder(String callId, String requestDeliveryId) throws BusException {
        return request("rpc.responder.release", opt(opt(BusFields.of(), "callId", callId), "requestDeliveryId",
                requestDeliveryId)).bool("released");
    }

    @Override
    public Replies.CancelState cancel(String callId) throws BusException {
        String state = request("rpc.cancel", opt(BusFields.of(), "callId", callId)).string("state");
        for (Replies.CancelState s : Replies.CancelState.values()) {
            if (s.wireName().equals(state)) {
                return s;
            }
        }
        throw new BusException(BusError.INVALID_ENVELOPE, "unknown cancel state " + state);
    }

    @Override
    public BusMessage poll() {
        if (!events.isEmpty()) {
            return events.poll();
        }
        if (!server.pumpOne(identity.clientId())) {
            return null;
        }
        for (long until = System.nanoTime() + 5_000_000_000L; System.nanoTime() - until < 0; ) {
            for (byte[] f : end.receive()) {
                try {
                    BusFrames.Decoded d = BusFrames.decode(f, 0, f.length);
                    events.add(BusWire.message(d.command(), d.fields()));
                } catch (BusException e) {
                    throw new AssertionError("a malformed event: " + e.getMessage(), e);
                }
            }
            if (!events.isEmpty()) {
                return events.poll();
            }
        }
        throw new AssertionError("the server handed out a message that never arrived");
    }

    @Override
    public boolean hasOutbound() {
        BusConnection c = server.connectionOf(identity.clientId());
        return !events.isEmpty() || c != null && c.hasOutbound();
    }

    @Override
    public void close() {
        closed = true;
        end.close();
        for (int turn = 0; turn < 100 && server.connectionOf(identity.clientId()) != null; turn++) {
            end.receive();
        }
    }

    /** A frame handler that copies each frame into {@code into}. */
    static FrameHandler collect(List<byte[]> into) {
        return (l, p, b, o, n) -> {
            byte[] c = new byte[n];
            System.arraycopy(b, o, c, 0, n);
            into.add(c);
        };
    }

    /** An end over the bus's in-process link. */
    static End inProcess(BusServer server, InProcessLink.End e) {
        return new End() {
            @Override
            public int send(byte[] frame) {
                return e.send(frame, 0, frame.length);
            }

            @Override
            public List<byte[]> receive() {
                server.doWork();
                List<byte[]> out = new ArrayList<>();
                for (byte[] f; (f = e.poll()) != null; ) {
                    out.add(f);
                }
                return out;
            }

            @Override
            public void close() {
                e.close();
            }
        };
    }

    /** An end over a client {@link Link} (the Unix socket), whose server is peer 0. */
    static End link(BusServer server, Link client) {
        List<byte[]> got = new ArrayList<>();
        FrameHandler h = collect(got);
        io.spectrum.link.local.ClosingNotice notices = new io.spectrum.link.local.ClosingNotice();
        return new End() {
            @Override
            public int send(byte[] frame) {
                return client.send(0, frame, 0, frame.length);
            }

            @Override
            public List<byte[]> receive() {
                server.doWork();
                client.poll(h, 64);
                List<byte[]> out = new ArrayList<>(got);
                got.clear();
                // the link's own notice before it closes a connection the bus let go: not a bus frame
                out.removeIf(f -> notices.reason(f, 0, f.length) >= 0);
                return out;
            }

            @Override
            public void close() {
                client.close();
            }
        };
    }
}
