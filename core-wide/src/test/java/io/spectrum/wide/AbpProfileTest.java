package io.spectrum.wide;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import io.spectrum.node.api.ValueListener;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.stats.BoundedResource;
import io.spectrum.testing.MemoryLink;
import io.spectrum.time.ManualClock;
import io.spectrum.wide.link.QueuedLink;
import io.spectrum.wide.link.QueuedLinkConfig;
import io.spectrum.wide.link.QueuedLinkStats;
import io.spectrum.wire.Extensions;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Names;
import io.spectrum.wire.StatusView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The ABP profile of ../shared/reference/flybus-abp-scenarios.md against {@link WideNode}, one test
 * per scenario, named after it. The mapping: an ABP topic is a vertex ({@code sysmon.metrics} is
 * {@code /sysmon/metrics}); an ABP connection is a {@link WidePeer} ({@link WideNode#connect}); the
 * inner message is the value TLV; {@code publish} is {@link WidePeer#publish} (retained unless asked
 * otherwise: {@code retain: false} is its five-argument form); {@code subscribe} is a subscribe with the durability bit (0x20), which is
 * what asks for the replay; {@code delivered} is the number of deliveries the publish made;
 * {@code subscriber_count} is {@link WideNode#listenerCount}; {@code list} is {@link WideNode#topics};
 * {@code topic.active/idle} are the publisher's {@link io.spectrum.node.api.ActivityListener}
 * notices; ABP's rc 10 errors are the typed WireError refusals. Where a scenario contradicts
 * DESIGN.md §4, the decision stands and the test says so.
 */
class AbpProfileTest {
    static final int REPLAY = 0x20;
    static final long GRACE = 60_000_000_000L;
    final ManualClock clock = new ManualClock(0);
    final WideNode node = new WideNode(WideNode.hostConfig().clock(clock).staleGraceNanos(GRACE).build());
    final NodePath metrics = NodePath.of("/sysmon/metrics");
    final NodePath t = NodePath.of("/t");
    final List<String> got = new ArrayList<>();

    /** A listener that records "tag path value seq=N [stale] [deleted]". */
    ValueListener rec(String tag) {
        return (s, v, seq, stale) -> got.add(tag + " " + v.path() + " " + Tlv.hex(v.copy()) + " seq=" + seq
                + (stale ? " stale" : "") + (v.deleted() ? " deleted" : ""));
    }

    /** Collects a peer's active / idle notices as "path active|idle n". */
    static List<String> notices(WidePeer p) {
        List<String> out = new ArrayList<>();
        p.setActivityListener((path, active, n) -> out.add(path.path() + (active ? " active " : " idle ") + n));
        return out;
    }

    static int publish(WidePeer p, NodePath path, byte[] tlv) {
        return p.publish(path, tlv, 0, tlv.length);
    }

    static final byte[] REPLY_EP = NodePath.of("/reply-ep").tlv();
    static final NodePath ROOT = NodePath.of("/");

    /** FWD{VALUE u8 op, [dst], [field], src, [payload]}: a libtracer request as a link carries it. */
    static byte[] fwd(int op, byte[] dst, byte[] field, byte[] src, byte[] payload) {
        byte[] b = new byte[512];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FWD).value(op, 1);
        for (byte[] part : new byte[][] {dst, field, src, payload}) {
            if (part != null) {
                w.raw(part);
            }
        }
        w.end();
        assertEquals(WireError.OK, w.error());
        return Arrays.copyOf(b, w.length());
    }

    /** A reply frame's status: OK for a RESULT, the typed code of an ERROR. */
    static int status(byte[] reply) {
        TlvIndex x = new TlvIndex();
        assertEquals(WireError.OK, new FrameDecoder().decode(reply, 0, reply.length, x));
        FwdView f = new FwdView();
        assertEquals(WireError.OK, f.wrap(x, 0));
        assertEquals(FwdView.OP_REPLY, f.opcode());
        return f.kind() == FwdView.KIND_ERROR ? StatusView.errorCode(x, f.payload(), -1) : WireError.OK;
    }

    /** A reply's payload bytes. */
    static byte[] payload(byte[] reply) {
        TlvIndex x = new TlvIndex();
        assertEquals(WireError.OK, new FrameDecoder().decode(reply, 0, reply.length, x));
        FwdView f = new FwdView();
        assertEquals(WireError.OK, f.wrap(x, 0));
        return Arrays.copyOfRange(reply, x.start(f.payload()), x.end(f.payload()));
    }

    static long inUse(WideNode n, String name) {
        for (BoundedResource r : n.resources()) {
            if (r.resourceName().equals(name)) {
                return r.inUse();
            }
        }
        throw new AssertionError("no resource " + name);
    }

    /** Polls the node until {@code done} (a guard against hangs after 20 s, not a timing assertion). */
    static void pump(WideNode n, BooleanSupplier done, String what) {
        long guard = System.nanoTime() + 20_000_000_000L;
        while (!done.getAsBoolean()) {
            if (n.poll() == 0) {
                Thread.onSpinWait();
            }
            if (System.nanoTime() - guard > 0) {
                fail("never happened: " + what);
            }
        }
    }

    byte[] read(NodePath p) {
        byte[] out = new byte[64];
        int n = node.read(p, out, 0, out.length);
        return n < 0 ? null : Arrays.copyOf(out, n);
    }

    @Test
    @DisplayName("A-01 retained publish with no subscribers, then a subscriber gets the replay with seq 1")
    void a01_retainedPublishThenSubscribeReplays() {
        WidePeer producer = node.connect("producer");
        List<String> activity = notices(producer);
        byte[] inner = Tlv.text("command: ui.batch");
        assertEquals(WireError.OK, publish(producer, metrics, inner));
        assertEquals(1, node.sequence(metrics), "seq 1");
        assertEquals(0, node.listenerCount(metrics), "delivered 0");
        Subscription s = node.connect("viewer").subscribe(metrics, REPLAY, rec("viewer"));
        assertTrue(s.isOpen());
        assertEquals(List.of("viewer /sysmon/metrics " + Tlv.hex(inner) + " seq=1"), got, "replayed, topic and topic_seq 1");
        assertEquals(List.of("/sysmon/metrics active 1"), activity);
    }

    @Test
    @DisplayName("A-02 a publish to a subscribed topic is delivered once, with the response's seq")
    void a02_publishDeliversWithTheSequence() {
        WidePeer producer = node.connect("producer");
        node.connect("viewer").subscribe(metrics, REPLAY, rec("viewer"));
        assertEquals(WireError.OK, publish(producer, metrics, Tlv.value(7, 1)));
        assertEquals(1, node.listenerCount(metrics), "delivered 1");
        assertEquals(List.of("viewer /sysmon/metrics 0100010007 seq=" + node.sequence(metrics)), got);
    }

    @Test
    @DisplayName("A-04 three publishes are seq 1, 2, 3")
    void a04_everyPublishSpendsTheNextNumber() {
        WidePeer p = node.connect(null);
        boolean[] retain = {false, true, false};
        for (int i = 1; i <= 3; i++) {
            byte[] v = Tlv.value(i, 1);
            assertEquals(WireError.OK, p.publish(t, v, 0, v.length, retain[i - 1]));
            assertEquals(i, node.sequence(t));
        }
        assertArrayEquals(Tlv.value(2, 1), read(t), "the one retained publish is the held value");
    }

    static int publishNotRetained(WidePeer p, NodePath path, byte[] tlv) {
        return p.publish(path, tlv, 0, tlv.length, false);
    }

    @Test
    @DisplayName("retain:false spends a sequence number and reaches the current subscribers, but caches nothing")
    void retainFalse_deliveredToTheCurrentSubscribersButCachesNothing() {
        WidePeer producer = node.connect("producer");
        assertEquals(WireError.OK, publish(producer, metrics, Tlv.value(1, 1)));
        node.connect("viewer").subscribe(metrics, REPLAY, rec("viewer"));
        got.clear();
        assertEquals(WireError.OK, publishNotRetained(producer, metrics, Tlv.value(2, 1)));
        assertEquals(List.of("viewer /sysmon/metrics 0100010002 seq=2"), got, "delivered 1, with the response's seq 2");
        assertEquals(2, node.sequence(metrics));
        assertArrayEquals(Tlv.value(1, 1), read(metrics), "the snapshot is still the retained publish");
        assertEquals(List.of(new TopicInfo("/sysmon/metrics", 1, true, 2, "producer", false)), node.topics(ROOT));
    }

    @Test
    @DisplayName("retain:false with no subscriber is a no-op that still answers {seq, delivered: 0}")
    void retainFalse_withNoSubscriberIsANoOpThatStillSpendsTheSequence() {
        WidePeer producer = node.connect("producer");
        long held = inUse(node, "wide.values");
        assertEquals(WireError.OK, publishNotRetained(producer, t, Tlv.value(1, 1)));
        assertEquals(1, node.sequence(t), "seq 1");
        assertEquals(0, node.listenerCount(t), "delivered 0");
        assertNull(read(t), "nothing cached");
        assertEquals(held, inUse(node, "wide.values"), "no value bytes held");
        assertEquals(WireError.OK, publishNotRetained(producer, t, Tlv.value(2, 1)));
        assertEquals(2, node.sequence(t), "the sequence counts publishes, not snapshots");
        assertEquals(List.of(), got);
    }

    @Test
    @DisplayName("retain:false: a late joiner gets the last retained snapshot with its original seq, or no replay")
    void retainFalse_aLateJoinerGetsTheLastRetainedSnapshotWithItsOriginalSequence() {
        WidePeer producer = node.connect("producer");
        assertEquals(WireError.OK, publishNotRetained(producer, t, Tlv.value(1, 1)));
        node.connect("early").subscribe(t, REPLAY, rec("early"));
        assertEquals(List.of(), got, "no retained snapshot: no replay (the response's seq 0)");
        assertEquals(WireError.OK, publish(producer, t, Tlv.value(2, 1)));
        assertEquals(WireError.OK, publishNotRetained(producer, t, Tlv.value(3, 1)));
        assertEquals(WireError.OK, publishNotRetained(producer, t, Tlv.value(4, 1)));
        got.clear();
        node.connect("late").subscribe(t, REPLAY, rec("late"));
        assertEquals(List.of("late /t 0100010002 seq=2"), got, "the retained snapshot, with its own seq 2");
        got.clear();
        assertEquals(WireError.OK, publish(producer, t, Tlv.value(5, 1)));
        assertEquals(List.of("early /t 0100010005 seq=5", "late /t 0100010005 seq=5"), got,
                "the gap 2 -> 5 is the non-retained publishes in between");
    }

    @Test
    @DisplayName("retain:false clears a stale mark only when the same registered publisher comes back")
    void retainFalse_clearsAStaleMarkOnlyForTheSameRegisteredPublisher() {
        WidePeer c1 = node.connect("svc");
        assertEquals(WireError.OK, publish(c1, t, Tlv.value(1, 1)));
        c1.disconnect();
        assertTrue(node.isStale(t));
        WidePeer other = node.connect("other");
        assertEquals(WireError.OK, publishNotRetained(other, t, Tlv.value(2, 1)));
        assertTrue(node.isStale(t), "another publisher's non-retained publish leaves the snapshot stale");
        WidePeer anon = node.connect(null);
        assertEquals(WireError.OK, publishNotRetained(anon, t, Tlv.value(3, 1)));
        assertTrue(node.isStale(t), "an anonymous one too");
        WidePeer c2 = node.connect("svc");
        assertEquals(WireError.OK, publishNotRetained(c2, t, Tlv.value(4, 1)));
        assertFalse(node.isStale(t), "svc back within the grace: cleared by its non-retained publish");
        assertArrayEquals(Tlv.value(1, 1), read(t), "the snapshot is still svc's retained value");
        clock.advanceNanos(2 * GRACE);
        node.tick();
        assertArrayEquals(Tlv.value(1, 1), read(t), "current again: never purged");

        WidePeer a1 = node.connect(null);
        NodePath u = NodePath.of("/u");
        assertEquals(WireError.OK, publish(a1, u, Tlv.value(1, 1)));
        a1.disconnect();
        WidePeer a2 = node.connect(null);
        assertEquals(WireError.OK, publishNotRetained(a2, u, Tlv.value(2, 1)));
        assertTrue(node.isStale(u), "an anonymous publisher can never match again");
        c2.disconnect();
        WidePeer c3 = node.connect("svc");
        assertEquals(WireError.OK, publish(c3, NodePath.of("/w"), Tlv.value(9, 1)));
        assertTrue(node.isStale(t), "svc's last publish to /t went stale with c2");
        assertEquals(WireError.OK, publish(other, t, Tlv.value(5, 1)));
        assertFalse(node.isStale(t), "a retained publish is a new snapshot: fresh, whoever makes it");
    }

    @Test
    @DisplayName("A-08 publishing to $stats is refused (access::denied), nothing cached, no seq; subscribing is allowed")
    void a08_reservedNamesAreTheNodesOwn() {
        NodePath stats = NodePath.of("/$stats");
        WidePeer p = node.connect("producer");
        assertEquals(WireError.ACCESS_DENIED, publish(p, stats, Tlv.value(1, 1)), "ABP rc 10 reserved_name");
        assertNull(read(stats), "nothing cached");
        assertEquals(0, node.sequence(stats), "no seq allocated");
        assertEquals(WireError.ACCESS_DENIED, publish(p, NodePath.of("/a/$b/c"), Tlv.value(1, 1)), "any $ segment");
        assertTrue(node.topics(NodePath.of("/")).isEmpty(), "nothing was created");
        Subscription s = p.subscribe(stats, REPLAY, rec("p"));
        assertEquals(WireError.OK, s.error());
        assertTrue(s.isOpen());
        // the owner rule: the node's owner writes its $ names (as NarrowNode's owner does)
        assertEquals(WireError.OK, node.write(stats, Tlv.value(5, 1), 0, 5));
        assertEquals(List.of("p /$stats 0100010005 seq=1"), got, "a $ subscriber hears the owner");
        assertEquals(WireError.ACCESS_DENIED, publish(p, stats, Tlv.value(6, 1)), "still refused once it exists");
        assertArrayEquals(Tlv.value(5, 1), read(stats));
        assertEquals(1, node.sequence(stats));
    }

    @Test
    @DisplayName("A-09 a value one byte above the 1 MiB cap is refused, the cap itself is accepted")
    void a09_payloadCap() {
        WidePeer p = node.connect("producer");
        byte[] over = Tlv.blob(1_048_577);
        byte[] at = Tlv.blob(1_048_576);
        assertEquals(WireError.FLOW_BACKPRESSURE, publish(p, t, over), "ABP rc 10 payload_too_large");
        assertEquals(0, node.sequence(t), "a refused publish spends no number");
        assertEquals(-WireError.PATH_NOT_FOUND, node.read(t, new byte[8], 0, 8), "nothing stored, nothing created");
        assertEquals(WireError.OK, publish(p, t, at));
        assertEquals(1, node.sequence(t));
        byte[] back = new byte[at.length];
        assertEquals(at.length, node.read(t, back, 0, back.length));
        assertArrayEquals(at, back);
    }

    @Test
    @DisplayName("A-10 a malformed frame or payload and a request without a name are refused with typed errors and change nothing")
    void a10_malformedAndNamelessRequests() {
        // The mapping: ABP's "body is not a parseable ABP message" is, on libtracer's wire, a frame that
        // does not decode, or a FWD WRITE that carries no value; ABP's missing `name` header is a FWD
        // whose dst names nothing (no dst at all, or a PATH with an empty name). ABP's rc 10 is the
        // typed WireError (tr::...) answer. A frame that does not decode, and a FWD without a dst, have
        // no trustworthy return route: over a link they are dropped and counted on it (digest §5.1);
        // the owner's door answers the decode refusal itself. A value that is not of the vertex's
        // declared type is the other unparseable body. Nothing is created, stored or numbered.
        // (t is declared writable: a remote write to an undeclared vertex is access::denied first.)
        assertEquals(WireError.OK, node.declare(t, VertexSchema.value(1, false).writable().build()));
        WidePeer producer = node.connect("producer");
        publish(producer, t, Tlv.value(1, 1));
        MemoryLink link = MemoryLink.pair()[0];
        assertEquals(WireError.OK, node.attach(link));
        List<TopicInfo> before = node.topics(ROOT);
        long vertices = inUse(node, "wide.vertices");

        byte[] read = fwd(FwdView.OP_READ, t.tlv(), null, REPLY_EP, null);
        byte[] truncated = Arrays.copyOf(read, read.length - 2);
        link.inject(truncated);
        node.poll();
        assertEquals(List.of(), link.sent(), "no return route to answer on");
        assertEquals(1, node.linkStats(link).framesRejected(), "dropped and counted");
        byte[] reply = new byte[256];
        int r = node.handleOwnerRequest(truncated, 0, truncated.length, reply, 0, reply.length);
        assertEquals(-WireError.FRAME_TRUNCATED, r, "the owner's door: tr::frame::truncated");

        link.inject(fwd(FwdView.OP_WRITE, t.tlv(), null, REPLY_EP, null));
        node.poll();
        assertEquals(1, link.sent().size());
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, status(link.sent().get(0)), "a write without a value: malformed_payload");
        link.inject(fwd(FwdView.OP_WRITE, t.tlv(), null, REPLY_EP, Tlv.text("not a u8")));
        node.poll();
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, status(link.sent().get(1)), "a body that is not the declared value");

        link.inject(fwd(FwdView.OP_WRITE, null, null, REPLY_EP, Tlv.value(9, 1)));
        node.poll();
        assertEquals(2, link.sent().size(), "no dst: no return route either");
        assertEquals(2, node.linkStats(link).framesRejected());

        byte[] nameless = {TlvType.PATH, 0, 1, 0, 0}; // a PATH whose one segment has an empty name
        link.inject(fwd(FwdView.OP_WRITE, nameless, null, REPLY_EP, Tlv.value(9, 1)));
        link.inject(fwd(FwdView.OP_READ, nameless, null, REPLY_EP, null));
        node.poll();
        assertEquals(4, link.sent().size());
        assertEquals(WireError.PATH_INVALID, status(link.sent().get(2)), "the name is missing: tr::path::invalid");
        assertEquals(WireError.PATH_INVALID, status(link.sent().get(3)));

        assertEquals(before, node.topics(ROOT), "nothing changed");
        assertEquals(vertices, inUse(node, "wide.vertices"), "nothing created");
        assertEquals(1, node.sequence(t), "no number spent");
        assertArrayEquals(Tlv.value(1, 1), read(t));
        link.inject(read);
        node.poll();
        assertEquals(WireError.OK, status(link.sent().get(4)), "the link still serves");
        assertArrayEquals(Tlv.value(1, 1), payload(link.sent().get(4)));
    }

    @Test
    @DisplayName("A-11 unsubscribe when not subscribed is OK; after an unsubscribe nothing is delivered")
    void a11_unsubscribe() {
        WidePeer viewer = node.connect("viewer");
        assertEquals(WireError.OK, viewer.unsubscribe(t), "not subscribed: rc 0");
        Subscription s = viewer.subscribe(t, REPLAY, rec("viewer"));
        assertEquals(WireError.OK, viewer.unsubscribe(t));
        assertFalse(s.isOpen());
        assertEquals(WireError.OK, node.connect("producer").publish(t, Tlv.value(1, 1), 0, 5));
        assertEquals(List.of(), got, "no delivery after the unsubscribe");
        assertEquals(0, node.listenerCount(t));
    }

    @Test
    @DisplayName("A-12 subscriber count: 0 for an absent topic, 2 after two peers subscribe (one twice)")
    void a12_subscriberCountAndIdempotentSubscribe() {
        assertEquals(0, node.listenerCount(NodePath.of("/absent")));
        WidePeer a = node.connect("a");
        WidePeer b = node.connect("b");
        ValueListener la = rec("a");
        Subscription first = a.subscribe(t, REPLAY, la);
        Subscription again = a.subscribe(t, REPLAY, la);
        b.subscribe(t, REPLAY, rec("b"));
        assertSame(first, again, "a repeated subscribe answers the existing edge");
        assertEquals(2, node.listenerCount(t));
        node.write(t, Tlv.value(1, 1), 0, 5);
        assertEquals(2, got.size(), "no duplicate delivery");
    }

    @Test
    @DisplayName("A-13 list: sorted entries with value, seq, last publisher and stale; a prefix narrows it")
    void a13_list() {
        WidePeer producer = node.connect("producer");
        publish(producer, metrics, Tlv.value(1, 1));
        node.connect("viewer").subscribe(metrics, REPLAY, rec("v"));
        NodePath mail = NodePath.of("/mail/x");
        node.connect("mailer").subscribe(mail, REPLAY, rec("m"));
        List<TopicInfo> all = node.topics(NodePath.of("/"));
        assertEquals(List.of(
                new TopicInfo("/mail/x", 1, false, 0, null, false),
                new TopicInfo("/sysmon/metrics", 1, true, 1, "producer", false)), all);
        assertEquals(List.of(new TopicInfo("/sysmon/metrics", 1, true, 1, "producer", false)),
                node.topics(NodePath.of("/sysmon")));
    }

    @Test
    @DisplayName("A-14 clear with notify delivers a delete notice; then no replay; clear without notify and of an absent topic are quiet OKs")
    void a14_clear() {
        WidePeer producer = node.connect("producer");
        publish(producer, t, Tlv.value(1, 1));
        node.connect("early").subscribe(t, REPLAY, rec("early"));
        assertEquals(1, got.size(), "the replay");
        assertEquals(WireError.OK, node.clear(t, true));
        assertEquals("early /t 09000000 seq=2 deleted", got.get(1), "delivered 1: op delete, empty body (the empty STATUS)");
        node.connect("late").subscribe(t, REPLAY, rec("late"));
        assertEquals(2, got.size(), "replayed false");

        publish(producer, t, Tlv.value(2, 1));
        got.clear();
        assertEquals(WireError.OK, node.clear(t, false));
        assertEquals(List.of(), got, "notify=false delivers nothing");
        assertNull(read(t));
        assertEquals(WireError.OK, node.clear(NodePath.of("/absent"), true), "absent: rc 0");
        assertEquals(List.of(), got);
    }

    @Test
    @DisplayName("A-15 clear does not reset the counter (the notice spends a fresh number: DESIGN §4 decision 2)")
    void a15_clearKeepsTheCounter() {
        WidePeer producer = node.connect("producer");
        node.connect("viewer").subscribe(t, 0, rec("viewer"));
        for (int i = 1; i <= 5; i++) {
            publish(producer, t, Tlv.value(i, 1));
        }
        got.clear();
        node.clear(t, true);
        publish(producer, t, Tlv.value(6, 1));
        // ABP's reference stamps the delete notice with the current seq (5) and publishes 6 next.
        // DESIGN §4 decision 2: a notifying clear spends a fresh number, so the notice is 6 and the
        // next publish 7; the counter is not reset either way.
        assertEquals(List.of("viewer /t 09000000 seq=6 deleted", "viewer /t 0100010006 seq=7"), got);
    }

    @Test
    @DisplayName("A-16 the publisher gets exactly one active (1) and one idle (0) over two subscribers coming and going")
    void a16_activeThenIdle() {
        WidePeer producer = node.connect("producer");
        List<String> activity = notices(producer);
        publish(producer, t, Tlv.value(1, 1));
        WidePeer s1 = node.connect("s1");
        WidePeer s2 = node.connect("s2");
        s1.subscribe(t, REPLAY, rec("s1"));
        s2.subscribe(t, REPLAY, rec("s2"));
        s2.unsubscribe(t);
        s1.unsubscribe(t);
        assertEquals(List.of("/t active 1", "/t idle 0"), activity);
    }

    @Test
    @DisplayName("A-17 a publisher that starts after its subscribers gets no active notice")
    void a17_noActiveForAPublishThatFindsSubscribers() {
        node.connect("s1").subscribe(t, REPLAY, rec("s1"));
        WidePeer producer = node.connect("producer");
        List<String> activity = notices(producer);
        publish(producer, t, Tlv.value(1, 1));
        publish(producer, t, Tlv.value(2, 1));
        assertEquals(List.of(), activity, "only subscribe transitions notify");
        assertEquals(2, got.size());
    }

    @Test
    @DisplayName("A-19 anonymous publishers: anon-<8 hex>-<unix seconds>, distinct, shown in the list, told of activity")
    void a19_anonymousIdentities() {
        clock.advanceMillis(5_000);
        WidePeer p1 = node.connect(null);
        WidePeer p2 = node.connect("");
        List<String> activity = notices(p1);
        publish(p1, NodePath.of("/one"), Tlv.value(1, 1));
        publish(p2, NodePath.of("/two"), Tlv.value(2, 1));
        List<TopicInfo> all = node.topics(NodePath.of("/"));
        assertEquals(2, all.size());
        String a = all.get(0).lastPublisher();
        String b = all.get(1).lastPublisher();
        assertTrue(a.matches("^anon-[0-9a-f]{8}-[0-9]+$"), a);
        assertTrue(b.matches("^anon-[0-9a-f]{8}-[0-9]+$"), b);
        assertNotEquals(a, b);
        assertEquals(p1.identity(), a);
        assertTrue(p1.isAnonymous());
        long seconds = clock.epochNanos() / 1_000_000_000L;
        assertTrue(a.endsWith("-" + seconds), a + " ends with the unix seconds " + seconds);
        node.connect(null).subscribe(NodePath.of("/one"), REPLAY, rec("s"));
        assertEquals(List.of("/one active 1"), activity);
    }

    @Test
    @DisplayName("A-22 a stale snapshot is purged after the grace; the sequence continues (DESIGN §4 decision 2)")
    void a22_stalePurgeKeepsTheSequence() {
        WidePeer producer = node.connect("producer");
        publish(producer, t, Tlv.value(1, 1));
        producer.disconnect();
        assertTrue(node.isStale(t));
        assertEquals(List.of(new TopicInfo("/t", 0, true, 1, "producer", true)), node.topics(t));
        clock.advanceNanos(GRACE - 1);
        node.tick();
        assertArrayEquals(Tlv.value(1, 1), read(t), "kept within the grace");
        clock.advanceNanos(1);
        node.tick();
        assertNull(read(t), "purged");
        assertFalse(node.isStale(t));
        assertEquals(List.of(), node.topics(NodePath.of("/")), "gone from the list");
        node.connect("late").subscribe(t, REPLAY, rec("late"));
        assertEquals(List.of(), got, "replayed false");
        publish(node.connect("producer"), t, Tlv.value(2, 1));
        // the reference restarts at seq 1 here; DESIGN §4 decision 2: the sequence never goes back, and
        // the purge is the node's notifying clear (its delete notice spent seq 2), so this publish is 3
        assertEquals(3, node.sequence(t));
        assertEquals(List.of("late /t 0100010002 seq=3"), got);

        // with a remaining subscriber: the entry stays and the sequence continues
        NodePath kept = NodePath.of("/kept");
        node.connect("watcher").subscribe(kept, 0, rec("w"));
        WidePeer p2 = node.connect("p2");
        publish(p2, kept, Tlv.value(1, 1));
        p2.disconnect();
        clock.advanceNanos(GRACE);
        node.tick();
        assertEquals(List.of(new TopicInfo("/kept", 1, false, 2, "p2", false)), node.topics(kept));
        publish(node.connect("p3"), kept, Tlv.value(2, 1));
        assertEquals(3, node.sequence(kept));
        assertEquals(List.of("w /kept 0100010001 seq=1", "w /kept 0100010001 seq=1 stale", "w /kept 09000000 seq=2 deleted",
                "w /kept 0100010002 seq=3"), got.subList(1, got.size()), "the watcher is told the stale mark and the purge at once");
    }

    @Test
    @DisplayName("A-23 re-registration: C1 tears down after C2 re-registered as svc; C2 still receives, shared is not stale, C1's own topics go")
    void a23_reRegistration() {
        // The mapping: ABP's registry entry going stale is a connection that is still open but silent;
        // names are not exclusive here (each connect(name) is its own connection, DESIGN §4 decision 7),
        // so C2 registers `svc` while C1 lingers. C1's teardown is its disconnect: its edges are reaped
        // and what it is still the last publisher of goes stale, then is purged after the grace on the
        // clock ("gone": no value, not in topics()). What C2 republished is C2's, so it stays fresh.
        NodePath shared = NodePath.of("/shared");
        NodePath own = NodePath.of("/svc/own");
        WidePeer c1 = node.connect("svc");
        c1.subscribe(shared, REPLAY, rec("c1"));
        assertEquals(WireError.OK, publish(c1, shared, Tlv.value(1, 1)));
        assertEquals(WireError.OK, publish(c1, own, Tlv.value(1, 1)));
        clock.advanceNanos(GRACE); // C1's entry goes stale: silent, not torn down
        WidePeer c2 = node.connect("svc");
        List<String> activity = notices(c2);
        c2.subscribe(shared, REPLAY, rec("c2"));
        assertEquals(WireError.OK, publish(c2, shared, Tlv.value(2, 1)));
        got.clear();

        c1.disconnect();
        assertFalse(c1.isConnected());
        assertFalse(node.isStale(shared), "the snapshot is C2's: not stale");
        assertEquals("svc", node.lastPublisher(shared));
        assertTrue(node.isStale(own), "C1's own-only topic goes stale at once");
        assertEquals(1, node.listenerCount(shared), "C1's subscription was reaped, C2's stays");
        assertEquals(List.of(), activity, "1 -> 1... no idle: C2 is still subscribed");
        assertEquals(WireError.OK, publish(c2, shared, Tlv.value(3, 1)));
        assertEquals(List.of("c2 /shared 0100010003 seq=3"), got, "C2's subscription still receives; C1 gets nothing");

        clock.advanceNanos(GRACE);
        node.tick();
        assertNull(read(own), "C1's own-only topic is purged after the grace");
        assertEquals(List.of(new TopicInfo("/shared", 1, true, 3, "svc", false)), node.topics(ROOT),
                "C1's own-only topics are gone, the shared one stays fresh");
    }

    /** The slow-consumer test's peers behind its QueuedLink: one that never drains, one that reads. */
    private static final int SLOW = 1;
    private static final int READER = 2;

    @Test
    @DisplayName("A-24 slow consumer (spec variant): publishes all succeed, the oldest queued deliveries are dropped, past the threshold the peer is disconnected; the node still answers")
    void a24_slowConsumerIsDisconnected() {
        // DESIGN §4 decision 1 picks ABP's spec variant: a subscriber that never drains its link sits
        // behind a QueuedLink (per-peer bounded queue, drop-oldest, slow-consumer disconnect). The
        // publisher is never slowed or refused; the node's own per-peer delivery rate is off here so the
        // link's bound is what acts. Outcomes are asserted, not time (the pump's guard only stops a hang).
        final int queue = 16;
        final int threshold = 32;
        WideNode wide = new WideNode(WideNode.hostConfig().clock(clock).staleGraceNanos(GRACE)
                .peerDeliveriesPerSecond(0).build());
        WidePeer producer = wide.connect("producer");
        assertEquals(WireError.OK, publish(producer, t, Tlv.value(0, 4)));
        // the inner link, touched by the QueuedLink's I/O thread: peer SLOW never drains (every send answers
        // FLOW_BACKPRESSURE, like a full socket buffer), peer READER reads; both up from the first poll
        MemoryLink inner = new MemoryLink(24, 64 * 1024).refuse(SLOW, WireError.FLOW_BACKPRESSURE);
        inner.peerUp(SLOW);
        inner.peerUp(READER);
        QueuedLink link = QueuedLink.wrap(inner, QueuedLinkConfig.builder().maxPeers(4).peerQueueFrames(queue)
                .disconnectDrops(threshold).disconnectWindowMillis(3_600_000).build());
        try {
            assertEquals(WireError.OK, wide.attach(link));
            byte[] slowEp = NodePath.of("/slow").tlv();
            byte[] subs = new byte[64];
            TlvWriter f = new TlvWriter().wrap(subs, 0, subs.length);
            f.begin(TlvType.FIELD).leaf(TlvType.NAME, Names.SUBSCRIBERS).value(1, 1).end(); // [+] append
            byte[] rec = new byte[64];
            TlvWriter sr = new TlvWriter().wrap(rec, 0, rec.length);
            sr.begin(TlvType.SUBSCRIBER).raw(slowEp).end();
            inner.inject(SLOW, fwd(FwdView.OP_WRITE, t.tlv(), Arrays.copyOf(subs, f.length()), slowEp,
                    Arrays.copyOf(rec, sr.length())));
            pump(wide, () -> wide.listenerCount(t) == 1, "the slow peer's subscription");

            final int publishes = 2_000;
            for (int i = 1; i <= publishes; i++) {
                assertEquals(WireError.OK, publish(producer, t, Tlv.value(i, 4)), "publish " + i + " succeeds");
                wide.poll();
            }
            pump(wide, () -> wide.listenerCount(t) == 0, "the slow consumer disconnected and its edge reaped");
            QueuedLinkStats st = link.queueStats();
            assertEquals(1, st.disconnects(), "disconnected once, counted: " + st);
            assertEquals(threshold + 1, st.droppedOldest(), "the oldest deliveries dropped, counted; the drop past the threshold disconnects");
            assertTrue(link.peerQueue(SLOW).disconnected());
            assertFalse(link.isPeerUp(SLOW));
            assertTrue(inner.refusals() > 0, "its sends backed up");
            assertEquals(0, inner.sentTo(SLOW), "it never drained");

            inner.inject(READER, fwd(FwdView.OP_READ, t.tlv(), null, REPLY_EP, null));
            pump(wide, () -> inner.sentTo(READER) > 0, "another peer's read answered");
            byte[] answer = inner.sentAt(0);
            assertEquals(WireError.OK, status(answer));
            assertArrayEquals(Tlv.value(publishes, 4), payload(answer), "the latest value");
            assertEquals(WireError.OK, publish(producer, t, Tlv.value(publishes + 1, 4)), "the publisher is unaffected");
            assertEquals(publishes + 2L, wide.sequence(t), "the first value, the loop, the last: every one numbered");
        } finally {
            link.close();
        }
    }

    @Test
    @DisplayName("A-25 the node's extensions include core and topic ($node/caps, libtracer's ping)")
    void a25_extensions() {
        byte[] caps = new byte[128];
        int n = node.read(NodePath.of(Names.CAPS_PATH), caps, 0, caps.length);
        byte[] expected = new byte[128];
        int m = Extensions.writeCaps(expected, 0, expected.length);
        assertArrayEquals(Arrays.copyOf(expected, m), Arrays.copyOf(caps, n), "the same caps map as a NARROW node");
        String hex = Tlv.hex(Arrays.copyOf(caps, n));
        assertTrue(hex.contains("02000400" + Tlv.hex("core".getBytes()) + "0100020001"), hex);
        assertTrue(hex.contains("02000500" + Tlv.hex("topic".getBytes()) + "0100020001"), hex);
    }

    @Test
    @DisplayName("A-26 the replay reaches the subscriber before its subscribe answers")
    void a26_replayBeforeTheResponse() {
        publish(node.connect("producer"), t, Tlv.value(1, 1));
        List<String> order = new ArrayList<>();
        node.connect("viewer").subscribe(t, REPLAY, (s, v, seq, stale) -> order.add("replay seq=" + seq));
        order.add("subscribe answered");
        assertEquals(List.of("replay seq=1", "subscribe answered"), order);
    }

    @Test
    @DisplayName("A-27 two alternating publishers: strictly increasing seqs, last write wins, active goes to the most recent")
    void a27_alternatingPublishers() {
        WidePeer p1 = node.connect("p1");
        WidePeer p2 = node.connect("p2");
        List<String> a1 = notices(p1);
        List<String> a2 = notices(p2);
        long last = 0;
        for (int i = 1; i <= 4; i++) {
            publish(i % 2 == 1 ? p1 : p2, t, Tlv.value(i, 1));
            assertTrue(node.sequence(t) > last);
            last = node.sequence(t);
        }
        assertEquals(4, last);
        assertArrayEquals(Tlv.value(4, 1), read(t), "last write wins");
        assertEquals("p2", node.lastPublisher(t));
        node.connect("viewer").subscribe(t, REPLAY, rec("v"));
        assertEquals(List.of(), a1);
        assertEquals(List.of("/t active 1"), a2);
    }
}
