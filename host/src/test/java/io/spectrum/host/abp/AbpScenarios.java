package io.spectrum.host.abp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static io.spectrum.testing.ValueTlvs.blob;
import static io.spectrum.testing.ValueTlvs.hex;
import static io.spectrum.testing.ValueTlvs.text;
import static io.spectrum.testing.ValueTlvs.value;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.spectrum.host.abp.AbpFabric.Feature;
import io.spectrum.wide.TopicInfo;
import io.spectrum.wire.Extensions;
import io.spectrum.wire.Names;
import io.spectrum.wire.WireError;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The ABP profile of ../shared/reference/flybus-abp-scenarios.md through one API ({@link AbpSession},
 * {@link AbpFabric}), run in-process ({@link AbpScenariosInProcessTest}) and through the host bus's
 * Unix socket and its node door ({@link AbpScenariosOverSocketTest}), against one WIDE node on a
 * manual clock. The mapping of each ABP request is in {@link InProcessAbp} and {@link SocketAbp}.
 * What a transport cannot reach ({@link AbpFabric#lacks}) is skipped there with an assumption naming
 * it, at the point the scenario needs it: what comes before runs on both (the list's last publishers
 * are checked last for that reason). Scenarios whose subscriber came before the first publish
 * subscribe after it where the scenario does not depend on that order (A-02, A-04, A-08, A-11, A-12,
 * A-22); A-13's subscriber-only topic and A-17 need it. Where a scenario contradicts DESIGN.md §4, the
 * decision stands and the test says so, as core-wide's {@code AbpProfileTest} does; that test keeps
 * the scenarios and checks that need the node's own state or a link (A-10's malformed frames, A-24's
 * slow consumer behind a QueuedLink, the value pool, the unix seconds of an anonymous id).
 */
abstract class AbpScenarios {
    static final String METRICS = "/sysmon/metrics";
    static final String T = "/t";

    AbpFabric f;
    /** Whole-list comparisons a transport without {@link Feature#LIST_DETAIL} runs only where it can. */
    private final List<Runnable> listDetail = new ArrayList<>();

    /** A fresh node and transport for each test. */
    abstract AbpFabric fabric() throws Exception;

    @BeforeEach
    void start() throws Exception {
        f = fabric();
    }

    @AfterEach
    void stop() {
        if (f != null) {
            f.close();
        }
    }

    /** A delivery as the sessions record it. */
    static String line(String path, byte[] value, long seq, boolean stale, boolean deleted) {
        return path + " " + hex(value) + " seq=" + seq + (stale ? " stale" : "") + (deleted ? " deleted" : "");
    }

    /** {@code s} received exactly {@code want}: waits for that many, then a quiet window for more. */
    static void expect(AbpSession s, String... want) {
        s.pumpUntil(() -> s.deliveries().size() >= want.length, want.length + " deliveries");
        s.quiet();
        assertEquals(List.of(want), s.deliveries());
    }

    /** {@code s} received exactly the notices {@code want}: waits for that many, then a quiet window for more. */
    static void expectNotices(AbpSession s, String... want) {
        s.pumpUntil(() -> s.notices().size() >= want.length, want.length + " notices");
        s.quiet();
        assertEquals(List.of(want), s.notices());
    }

    /**
     * {@code actual} is the list {@code expected}: whole where the transport sees every field, else without
     * the last publisher and the sequence of a topic without a value (checked later by {@link #listDetail()}).
     */
    void assertTopics(List<TopicInfo> expected, List<TopicInfo> actual) {
        if (f.lacks(Feature.LIST_DETAIL) == null) {
            assertEquals(expected, actual);
            return;
        }
        assertEquals(wire(expected), wire(actual), "what the wire shows of the list");
        listDetail.add(() -> assertEquals(expected, actual));
    }

    private static List<TopicInfo> wire(List<TopicInfo> l) {
        return l.stream().map(i -> new TopicInfo(i.path(), i.subscribers(), i.hasValue(), i.hasValue() ? i.seq() : 0, null,
                i.stale())).collect(Collectors.toList());
    }

    /** The list's last publishers (and the sequence of topics without a value): last, as they need the feature. */
    void listDetail() {
        assumeTrue(f.lacks(Feature.LIST_DETAIL) == null, () -> f.lacks(Feature.LIST_DETAIL));
        listDetail.forEach(Runnable::run);
    }

    void needs(Feature feature) {
        assumeTrue(f.lacks(feature) == null, () -> f.lacks(feature));
    }

    @Test
    @DisplayName("A-01 retained publish with no subscribers, then a subscriber gets the replay with seq 1")
    void a01_retainedPublishThenSubscribeReplays() {
        AbpSession producer = f.connect("producer");
        byte[] inner = text("command: ui.batch");
        assertEquals(WireError.OK, producer.publish(METRICS, inner, true));
        assertEquals(1, producer.read(METRICS).seq(), "seq 1");
        assertEquals(0, producer.subscriberCount(METRICS), "delivered 0");
        AbpSession viewer = f.connect("viewer");
        assertEquals(WireError.OK, viewer.subscribe(METRICS));
        expect(viewer, METRICS + " " + hex(inner) + " seq=1"); // replayed, topic and topic_seq 1
        expectNotices(producer, METRICS + " active 1");
    }

    @Test
    @DisplayName("A-02 a publish to a subscribed topic is delivered once, with the response's seq")
    void a02_publishDeliversWithTheSequence() {
        // the topic exists before the subscriber comes (SUBSCRIBE_ABSENT): its replay is the first delivery
        AbpSession producer = f.connect("producer");
        assertEquals(WireError.OK, producer.publish(METRICS, value(1, 1), true));
        AbpSession viewer = f.connect("viewer");
        assertEquals(WireError.OK, viewer.subscribe(METRICS));
        assertEquals(WireError.OK, producer.publish(METRICS, value(7, 1), true));
        assertEquals(1, producer.subscriberCount(METRICS), "delivered 1");
        long seq = producer.read(METRICS).seq();
        assertEquals(2, seq);
        expect(viewer, METRICS + " 0100010001 seq=1", METRICS + " 0100010007 seq=" + seq);
    }

    @Test
    @DisplayName("A-04 three publishes (retain false, true, false) are seq 1, 2, 3")
    void a04_everyPublishSpendsTheNextNumber() {
        AbpSession p = f.connect(null);
        assertEquals(WireError.OK, p.publish(T, value(1, 1), false));
        AbpSession watcher = f.connect("watcher"); // after the first publish, which made the topic (SUBSCRIBE_ABSENT)
        assertEquals(WireError.OK, watcher.subscribe(T));
        assertEquals(WireError.OK, p.publish(T, value(2, 1), true));
        assertEquals(WireError.OK, p.publish(T, value(3, 1), false));
        expect(watcher, "/t 0100010002 seq=2", "/t 0100010003 seq=3"); // nothing retained to replay; then 2, 3
        AbpSession.Read r = p.read(T);
        assertArrayEquals(value(2, 1), r.value(), "the one retained publish is the held value");
        assertEquals(3, r.seq(), "a stamped read carries the vertex's current sequence");
    }

    @Test
    @DisplayName("retain:false spends a sequence number and reaches the current subscribers, but caches nothing")
    void retainFalse_deliveredToTheCurrentSubscribersButCachesNothing() {
        AbpSession producer = f.connect("producer");
        assertEquals(WireError.OK, producer.publish(METRICS, value(1, 1), true));
        AbpSession viewer = f.connect("viewer");
        assertEquals(WireError.OK, viewer.subscribe(METRICS));
        assertEquals(WireError.OK, producer.publish(METRICS, value(2, 1), false));
        expect(viewer, METRICS + " 0100010001 seq=1", METRICS + " 0100010002 seq=2"); // delivered 1, with seq 2
        AbpSession.Read r = producer.read(METRICS);
        assertArrayEquals(value(1, 1), r.value(), "the snapshot is still the retained publish");
        assertEquals(2, r.seq());
        assertTopics(List.of(new TopicInfo(METRICS, 1, true, 2, "producer", false)), producer.list("/"));
        listDetail();
    }

    @Test
    @DisplayName("retain:false with no subscriber caches nothing and still spends the sequence")
    void retainFalse_withNoSubscriberIsANoOpThatStillSpendsTheSequence() {
        AbpSession producer = f.connect("producer");
        assertEquals(WireError.OK, producer.publish(T, value(1, 1), false));
        assertEquals(0, producer.subscriberCount(T), "delivered 0");
        assertNull(producer.read(T).value(), "nothing cached");
        assertEquals(WireError.OK, producer.publish(T, value(2, 1), false));
        AbpSession late = f.connect("late");
        assertEquals(WireError.OK, late.subscribe(T));
        late.quiet();
        assertEquals(List.of(), late.deliveries(), "nothing to replay");
        assertEquals(WireError.OK, producer.publish(T, value(3, 1), true));
        expect(late, "/t 0100010003 seq=3"); // the sequence counts publishes, not snapshots
    }

    @Test
    @DisplayName("retain:false: a late joiner gets the last retained snapshot with its original seq, or no replay")
    void retainFalse_aLateJoinerGetsTheLastRetainedSnapshotWithItsOriginalSequence() {
        AbpSession producer = f.connect("producer");
        assertEquals(WireError.OK, producer.publish(T, value(1, 1), false));
        AbpSession early = f.connect("early");
        assertEquals(WireError.OK, early.subscribe(T));
        early.quiet();
        assertEquals(List.of(), early.deliveries(), "no retained snapshot: no replay");
        assertEquals(WireError.OK, producer.publish(T, value(2, 1), true));
        assertEquals(WireError.OK, producer.publish(T, value(3, 1), false));
        assertEquals(WireError.OK, producer.publish(T, value(4, 1), false));
        AbpSession late = f.connect("late");
        assertEquals(WireError.OK, late.subscribe(T));
        expect(late, "/t 0100010002 seq=2"); // the retained snapshot, with its own seq 2
        assertEquals(WireError.OK, producer.publish(T, value(5, 1), true));
        expect(early, "/t 0100010002 seq=2", "/t 0100010003 seq=3", "/t 0100010004 seq=4", "/t 0100010005 seq=5");
        expect(late, "/t 0100010002 seq=2", "/t 0100010005 seq=5"); // the gap 2 -> 5: the non-retained publishes
    }

    @Test
    @DisplayName("retain:false clears a stale mark only when the same registered publisher comes back")
    void retainFalse_clearsAStaleMarkOnlyForTheSameRegisteredPublisher() {
        AbpSession other = f.connect("other");
        AbpSession c1 = f.connect("svc");
        assertEquals(WireError.OK, c1.publish(T, value(1, 1), true));
        c1.close();
        assertTrue(other.read(T).stale());
        assertEquals(WireError.OK, other.publish(T, value(2, 1), false));
        assertTrue(other.read(T).stale(), "another publisher's non-retained publish leaves the snapshot stale");
        AbpSession anon = f.connect(null);
        assertEquals(WireError.OK, anon.publish(T, value(3, 1), false));
        assertTrue(other.read(T).stale(), "an anonymous one too");
        AbpSession c2 = f.connect("svc");
        assertEquals(WireError.OK, c2.publish(T, value(4, 1), false));
        assertFalse(other.read(T).stale(), "svc back within the grace: cleared by its non-retained publish");
        assertArrayEquals(value(1, 1), other.read(T).value(), "the snapshot is still svc's retained value");
        f.advance(2 * AbpFabric.GRACE);
        assertArrayEquals(value(1, 1), other.read(T).value(), "current again: never purged");

        String u = "/u";
        AbpSession a1 = f.connect(null);
        assertEquals(WireError.OK, a1.publish(u, value(1, 1), true));
        a1.close();
        AbpSession a2 = f.connect(null);
        assertEquals(WireError.OK, a2.publish(u, value(2, 1), false));
        assertTrue(other.read(u).stale(), "an anonymous publisher can never match again");
        c2.close();
        AbpSession c3 = f.connect("svc");
        assertEquals(WireError.OK, c3.publish("/w", value(9, 1), true));
        assertTrue(other.read(T).stale(), "svc's last publish to /t went stale with c2");
        assertEquals(WireError.OK, other.publish(T, value(5, 1), true));
        assertFalse(other.read(T).stale(), "a retained publish is a new snapshot: fresh, whoever makes it");
    }

    @Test
    @DisplayName("A-08 publishing to $stats is refused (access::denied), nothing cached, no seq; subscribing is allowed")
    void a08_reservedNamesAreTheNodesOwn() {
        String stats = "/$stats";
        AbpSession p = f.connect("producer");
        assertEquals(WireError.ACCESS_DENIED, p.publish(stats, value(1, 1), true), "ABP rc 10 reserved_name");
        assertNull(p.read(stats).value(), "nothing cached");
        assertEquals(WireError.ACCESS_DENIED, p.publish("/a/$b/c", value(1, 1), true), "any $ segment");
        assertEquals(List.of(), p.list("/"), "nothing was created");
        // the owner rule: the node's owner writes its $ names (as NarrowNode's owner does)
        assertEquals(WireError.OK, f.ownerWrite(stats, value(5, 1)));
        assertEquals(WireError.OK, p.subscribe(stats));
        expect(p, "/$stats 0100010005 seq=1"); // the replay: the refusals spent no number
        assertEquals(WireError.ACCESS_DENIED, p.publish(stats, value(6, 1), true), "still refused once it exists");
        assertEquals(WireError.OK, f.ownerWrite(stats, value(7, 1)));
        expect(p, "/$stats 0100010005 seq=1", "/$stats 0100010007 seq=2"); // a $ subscriber hears the owner
        AbpSession.Read r = p.read(stats);
        assertArrayEquals(value(7, 1), r.value());
        assertEquals(2, r.seq());
    }

    @Test
    @DisplayName("A-09 a value one byte above the 1 MiB cap is refused, the cap itself is accepted")
    void a09_payloadCap() {
        needs(Feature.PAYLOAD_CAP);
        AbpSession p = f.connect("producer");
        byte[] over = blob(1_048_577);
        byte[] at = blob(1_048_576);
        assertEquals(WireError.FLOW_BACKPRESSURE, p.publish(T, over, true), "ABP rc 10 payload_too_large");
        assertNull(p.read(T).value(), "nothing stored");
        assertEquals(WireError.OK, p.publish(T, at, true));
        AbpSession.Read r = p.read(T);
        assertArrayEquals(at, r.value());
        assertEquals(1, r.seq(), "the refused publish spent no number");
    }

    @Test
    @DisplayName("A-11 unsubscribe when not subscribed is OK; after an unsubscribe nothing is delivered")
    void a11_unsubscribe() {
        AbpSession viewer = f.connect("viewer");
        assertEquals(WireError.OK, viewer.unsubscribe("/absent"), "no such topic: rc 0");
        AbpSession producer = f.connect("producer");
        assertEquals(WireError.OK, producer.publish(T, value(1, 1), true));
        assertEquals(WireError.OK, viewer.unsubscribe(T), "not subscribed: rc 0");
        assertEquals(WireError.OK, viewer.subscribe(T));
        assertEquals(1, viewer.subscriberCount(T));
        assertEquals(WireError.OK, viewer.unsubscribe(T));
        assertEquals(0, viewer.subscriberCount(T));
        assertEquals(WireError.OK, viewer.unsubscribe(T), "again: rc 0");
        assertEquals(WireError.OK, producer.publish(T, value(2, 1), true));
        expect(viewer, "/t 0100010001 seq=1"); // the replay, and no delivery after the unsubscribe
    }

    @Test
    @DisplayName("A-12 subscriber count: 0 for an absent topic, 2 after two peers subscribe (one twice)")
    void a12_subscriberCountAndIdempotentSubscribe() {
        AbpSession a = f.connect("a");
        AbpSession b = f.connect("b");
        assertEquals(0, a.subscriberCount("/absent"));
        assertEquals(WireError.OK, f.ownerWrite(T, value(1, 1)));
        assertEquals(0, a.subscriberCount(T));
        assertEquals(WireError.OK, a.subscribe(T));
        assertEquals(WireError.OK, a.subscribe(T), "a repeated subscribe answers the existing subscription");
        assertEquals(WireError.OK, b.subscribe(T));
        assertEquals(2, a.subscriberCount(T));
        assertEquals(WireError.OK, f.ownerWrite(T, value(2, 1)));
        expect(a, "/t 0100010001 seq=1", "/t 0100010002 seq=2"); // one replay, no duplicate delivery
        expect(b, "/t 0100010001 seq=1", "/t 0100010002 seq=2");
    }

    @Test
    @DisplayName("A-13 list: sorted entries with value, seq, last publisher and stale; a prefix narrows it")
    void a13_list() {
        AbpSession producer = f.connect("producer");
        assertEquals(WireError.OK, producer.publish(METRICS, value(1, 1), true));
        assertEquals(WireError.OK, f.connect("viewer").subscribe(METRICS));
        assertTopics(List.of(new TopicInfo(METRICS, 1, true, 1, "producer", false)), producer.list("/"));
        needs(Feature.SUBSCRIBE_ABSENT); // mail.x has a subscriber only
        AbpSession mailer = f.connect("mailer");
        assertEquals(WireError.OK, mailer.subscribe("/mail/x"));
        assertTopics(List.of(
                new TopicInfo("/mail/x", 1, false, 0, null, false),
                new TopicInfo(METRICS, 1, true, 1, "producer", false)), mailer.list("/"));
        assertTopics(List.of(new TopicInfo(METRICS, 1, true, 1, "producer", false)), mailer.list("/sysmon"));
        listDetail();
    }

    @Test
    @DisplayName("A-14 clear with notify delivers a delete notice; then no replay; clear without notify and of an absent topic are quiet OKs")
    void a14_clear() {
        needs(Feature.CLEAR);
        AbpSession producer = f.connect("producer");
        assertEquals(WireError.OK, producer.publish(T, value(1, 1), true));
        AbpSession early = f.connect("early");
        assertEquals(WireError.OK, early.subscribe(T));
        expect(early, "/t 0100010001 seq=1"); // the replay
        assertEquals(WireError.OK, producer.clear(T, true));
        // delivered 1: op delete, empty body (the empty STATUS)
        expect(early, "/t 0100010001 seq=1", "/t 09000000 seq=2 deleted");
        AbpSession late = f.connect("late");
        assertEquals(WireError.OK, late.subscribe(T));
        late.quiet();
        assertEquals(List.of(), late.deliveries(), "replayed false");

        assertEquals(WireError.OK, producer.publish(T, value(2, 1), true));
        expect(late, "/t 0100010002 seq=3");
        assertEquals(WireError.OK, producer.clear(T, false));
        expect(late, "/t 0100010002 seq=3"); // notify=false delivers nothing
        assertNull(producer.read(T).value());
        assertEquals(WireError.OK, producer.clear("/absent", true), "absent: rc 0");
        expect(early, "/t 0100010001 seq=1", "/t 09000000 seq=2 deleted", "/t 0100010002 seq=3");
    }

    @Test
    @DisplayName("A-15 clear does not reset the counter (the notice spends a fresh number: DESIGN §4 decision 2)")
    void a15_clearKeepsTheCounter() {
        needs(Feature.CLEAR);
        AbpSession producer = f.connect("producer");
        AbpSession viewer = f.connect("viewer");
        assertEquals(WireError.OK, viewer.subscribe(T));
        for (int i = 1; i <= 5; i++) {
            assertEquals(WireError.OK, producer.publish(T, value(i, 1), true));
        }
        assertEquals(WireError.OK, producer.clear(T, true));
        assertEquals(WireError.OK, producer.publish(T, value(6, 1), true));
        // ABP's reference stamps the delete notice with the current seq (5) and publishes 6 next.
        // DESIGN §4 decision 2: a notifying clear spends a fresh number, so the notice is 6 and the
        // next publish 7; the counter is not reset either way.
        expect(viewer, "/t 0100010001 seq=1", "/t 0100010002 seq=2", "/t 0100010003 seq=3", "/t 0100010004 seq=4",
                "/t 0100010005 seq=5", "/t 09000000 seq=6 deleted", "/t 0100010006 seq=7");
    }

    @Test
    @DisplayName("A-16 the publisher gets exactly one active (1) and one idle (0) over two subscribers coming and going")
    void a16_activeThenIdle() {
        AbpSession producer = f.connect("producer");
        assertEquals(WireError.OK, producer.publish(T, value(1, 1), true));
        AbpSession s1 = f.connect("s1");
        AbpSession s2 = f.connect("s2");
        assertEquals(WireError.OK, s1.subscribe(T));
        assertEquals(WireError.OK, s2.subscribe(T));
        assertEquals(WireError.OK, s2.unsubscribe(T));
        assertEquals(WireError.OK, s1.unsubscribe(T));
        expectNotices(producer, "/t active 1", "/t idle 0");
    }

    @Test
    @DisplayName("A-17 a publisher that starts after its subscribers gets no active notice")
    void a17_noActiveForAPublishThatFindsSubscribers() {
        needs(Feature.SUBSCRIBE_ABSENT);
        AbpSession s1 = f.connect("s1");
        assertEquals(WireError.OK, s1.subscribe(T));
        AbpSession producer = f.connect("producer");
        assertEquals(WireError.OK, producer.publish(T, value(1, 1), true));
        assertEquals(WireError.OK, producer.publish(T, value(2, 1), true));
        expect(s1, "/t 0100010001 seq=1", "/t 0100010002 seq=2");
        producer.quiet();
        assertEquals(List.of(), producer.notices(), "only subscribe transitions notify");
    }

    @Test
    @DisplayName("A-19 anonymous publishers: anon-<8 hex>-<unix seconds>, distinct, shown in the list, told of activity")
    void a19_anonymousIdentities() {
        AbpSession p1 = f.connect(null);
        AbpSession p2 = f.connect(null);
        assertEquals(WireError.OK, p1.publish("/one", value(1, 1), true));
        assertEquals(WireError.OK, p2.publish("/two", value(2, 1), true));
        String a = p1.identity();
        String b = p2.identity();
        assertTrue(a.matches("^anon-[0-9a-f]{8}-[0-9]+$"), a);
        assertTrue(b.matches("^anon-[0-9a-f]{8}-[0-9]+$"), b);
        assertNotEquals(a, b);
        assertEquals(WireError.OK, f.connect(null).subscribe("/one"));
        expectNotices(p1, "/one active 1"); // an anonymous publisher is told of activity
        p2.quiet();
        assertEquals(List.of(), p2.notices());
        assertTopics(List.of(new TopicInfo("/one", 1, true, 1, a, false), new TopicInfo("/two", 0, true, 1, b, false)),
                p1.list("/"));
        listDetail();
    }

    @Test
    @DisplayName("A-22 a stale snapshot is purged after the grace; the sequence continues (DESIGN §4 decision 2)")
    void a22_stalePurgeKeepsTheSequence() {
        AbpSession obs = f.connect("obs");
        AbpSession producer = f.connect("producer");
        assertEquals(WireError.OK, producer.publish(T, value(1, 1), true));
        producer.close();
        assertTrue(obs.read(T).stale());
        assertTopics(List.of(new TopicInfo(T, 0, true, 1, "producer", true)), obs.list(T));
        f.advance(AbpFabric.GRACE - 1);
        assertArrayEquals(value(1, 1), obs.read(T).value(), "kept within the grace");
        f.advance(1);
        assertNull(obs.read(T).value(), "purged");
        assertFalse(obs.read(T).stale());
        assertEquals(List.of(), obs.list("/"), "gone from the list");
        AbpSession late = f.connect("late");
        assertEquals(WireError.OK, late.subscribe(T));
        late.quiet();
        assertEquals(List.of(), late.deliveries(), "replayed false");
        assertEquals(WireError.OK, f.connect("producer").publish(T, value(2, 1), true));
        // the reference restarts at seq 1 here; DESIGN §4 decision 2: the sequence never goes back, and
        // the purge is the node's notifying clear (its delete notice spent seq 2), so this publish is 3
        expect(late, "/t 0100010002 seq=3");

        // with a remaining subscriber: the entry stays and the sequence continues
        String kept = "/kept";
        AbpSession p2 = f.connect("p2");
        assertEquals(WireError.OK, p2.publish(kept, value(1, 1), true));
        AbpSession watcher = f.connect("watcher");
        assertEquals(WireError.OK, watcher.subscribe(kept));
        expect(watcher, "/kept 0100010001 seq=1"); // the replay
        p2.close();
        f.advance(AbpFabric.GRACE);
        assertTopics(List.of(new TopicInfo(kept, 1, false, 2, "p2", false)), obs.list(kept));
        assertEquals(WireError.OK, f.connect("p3").publish(kept, value(2, 1), true));
        // the watcher is told the stale mark and the purge at once
        expect(watcher, "/kept 0100010001 seq=1", "/kept 0100010001 seq=1 stale", "/kept 09000000 seq=2 deleted",
                "/kept 0100010002 seq=3");
        listDetail();
    }

    @Test
    @DisplayName("A-23 re-registration: C1 tears down after C2 re-registered as svc; C2 still receives, shared is not stale, C1's own topics go")
    void a23_reRegistration() {
        // The mapping: ABP's registry entry going stale is a connection that is still open but silent;
        // names are not exclusive on the node (DESIGN §4 decision 7), so C2 registers `svc` while C1
        // lingers. C1's teardown is its close: its subscriptions are reaped and what it is still the last
        // publisher of goes stale, then is purged after the grace. What C2 republished stays fresh.
        needs(Feature.SHARED_NAME);
        String shared = "/shared";
        String own = "/svc/own";
        AbpSession c1 = f.connect("svc");
        assertEquals(WireError.OK, c1.subscribe(shared));
        assertEquals(WireError.OK, c1.publish(shared, value(1, 1), true));
        assertEquals(WireError.OK, c1.publish(own, value(1, 1), true));
        f.advance(AbpFabric.GRACE); // C1's entry goes stale: silent, not torn down
        AbpSession c2 = f.connect("svc");
        assertEquals(WireError.OK, c2.subscribe(shared));
        assertEquals(WireError.OK, c2.publish(shared, value(2, 1), true));
        expect(c1, "/shared 0100010001 seq=1", "/shared 0100010002 seq=2");

        c1.close();
        AbpSession obs = f.connect("obs");
        assertFalse(obs.read(shared).stale(), "the snapshot is C2's: not stale");
        assertTrue(obs.read(own).stale(), "C1's own-only topic goes stale at once");
        assertEquals(1, obs.subscriberCount(shared), "C1's subscription was reaped, C2's stays");
        assertEquals(WireError.OK, c2.publish(shared, value(3, 1), true));
        expect(c2, "/shared 0100010001 seq=1", "/shared 0100010002 seq=2", "/shared 0100010003 seq=3");
        assertEquals(List.of(), c2.notices(), "1 -> 1... no idle: C2 is still subscribed");
        assertEquals(List.of("/shared 0100010001 seq=1", "/shared 0100010002 seq=2"), c1.deliveries(), "C1 gets nothing more");

        f.advance(AbpFabric.GRACE);
        assertNull(obs.read(own).value(), "C1's own-only topic is purged after the grace");
        assertTopics(List.of(new TopicInfo(shared, 1, true, 3, "svc", false)), obs.list("/"));
        listDetail();
    }

    @Test
    @DisplayName("A-25 the node's extensions include core and topic ($node/caps, libtracer's ping)")
    void a25_extensions() {
        AbpSession.Read caps = f.connect("p").read(Names.CAPS_PATH);
        assertEquals(WireError.OK, caps.rc());
        byte[] expected = new byte[128];
        int m = Extensions.writeCaps(expected, 0, expected.length);
        assertArrayEquals(Arrays.copyOf(expected, m), caps.value(), "the same caps map as a NARROW node");
        String hex = hex(caps.value());
        assertTrue(hex.contains("02000400" + hex("core".getBytes()) + "0100020001"), hex);
        assertTrue(hex.contains("02000500" + hex("topic".getBytes()) + "0100020001"), hex);
    }

    @Test
    @DisplayName("A-26 the replay reaches the subscriber before its subscribe answers")
    void a26_replayBeforeTheResponse() {
        assertEquals(WireError.OK, f.connect("producer").publish(T, value(1, 1), true));
        AbpSession viewer = f.connect("viewer");
        assertEquals(WireError.OK, viewer.subscribe(T));
        assertEquals(List.of("/t 0100010001 seq=1"), viewer.deliveries(), "recorded when the answer came, before any poll");
    }

    @Test
    @DisplayName("A-27 two alternating publishers: strictly increasing seqs, last write wins, active goes to the most recent")
    void a27_alternatingPublishers() {
        AbpSession p1 = f.connect("p1");
        AbpSession p2 = f.connect("p2");
        long last = 0;
        for (int i = 1; i <= 4; i++) {
            assertEquals(WireError.OK, (i % 2 == 1 ? p1 : p2).publish(T, value(i, 1), true));
            long seq = p1.read(T).seq();
            assertTrue(seq > last, seq + " after " + last);
            last = seq;
        }
        assertEquals(4, last);
        assertArrayEquals(value(4, 1), p1.read(T).value(), "last write wins");
        AbpSession viewer = f.connect("viewer");
        assertEquals(WireError.OK, viewer.subscribe(T));
        expect(viewer, "/t 0100010004 seq=4");
        expectNotices(p2, "/t active 1");
        p1.quiet();
        assertEquals(List.of(), p1.notices());
        assertTopics(List.of(new TopicInfo(T, 1, true, 4, "p2", false)), p1.list("/"));
        listDetail();
    }
}
