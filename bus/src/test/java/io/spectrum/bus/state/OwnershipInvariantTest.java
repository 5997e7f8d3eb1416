package io.spectrum.bus.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import io.spectrum.bus.protocol.ArtifactRef;
import io.spectrum.bus.protocol.Attachment;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.bus.protocol.BusMessage;
import io.spectrum.bus.protocol.BusStats;
import io.spectrum.bus.protocol.Retention;
import io.spectrum.bus.protocol.SubscriptionMode;

/**
 * Random sequences of every operation, by several connections, with the bus's accounting checked
 * after each step: every object's root counter equals the queued entries, unconsumed deliveries,
 * holds, queued calls, pending results and retained values that name it; the store holds exactly
 * the rooted objects; credits, pools and service in-flight counts match what is outstanding; and
 * once everyone leaves and the topics go, nothing is left.
 */
class OwnershipInvariantTest {
    static final String[] TOPICS = {"t.a", "t.b", "t.c"};
    static final String[] SERVICES = {"s.a", "s.b"};

    BusFixture f;
    final List<BusConnection> conns = new ArrayList<>();
    final Map<BusConnection, List<BusMessage>> received = new IdentityHashMap<>();
    final Map<BusConnection, Long> nextCall = new IdentityHashMap<>();
    SplittableRandom rnd;
    int names;
    /** Operations that went through, by kind, so the run is known to exercise each one. */
    final int[] done = new int[17];
    int kind;
    int publishedWithArtifacts;
    int routedReplies;
    long consumed;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void rootsCreditsAndPoolsStayExactUnderRandomOperations(long seed) throws Exception {
        rnd = new SplittableRandom(seed);
        f = new BusFixture(BusLimits.builder().maxOwnersPerClient(12).reservedRpcOwners(3)
                .maxBoundedQueuedBytesPerClient(6_000).maxRetainedBytes(400).controlLaneFrames(8).build(),
                new MemoryArtifactStore("mem-1", 4_000, 1_000));
        for (int i = 0; i < 4; i++) {
            join();
        }
        for (int step = 0; step < 3_000; step++) {
            BusConnection c = conns.get(rnd.nextInt(conns.size()));
            try {
                act(c);
                done[kind]++;
            } catch (BusException expected) {
                // refusals are part of the run; the invariants must hold after them too
            }
            if (!c.isOpen()) {
                BusFixture.drain(c);
                conns.remove(c);
                join();
            }
            check("seed " + seed + " step " + step);
        }
        for (BusConnection c : new ArrayList<>(conns)) {
            c.close();
        }
        BusConnection last = (BusConnection) f.connect("last");
        for (String t : TOPICS) {
            last.delete(t);
        }
        last.close();
        assertEquals(new BusStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), f.bus.stats());
        assertTrue(f.store.collected > 0, "the run collected objects");
        assertTrue(publishedWithArtifacts > 20 && routedReplies > 2 && consumed > 50,
                publishedWithArtifacts + " " + routedReplies + " " + consumed);
        for (int k = 0; k < done.length; k++) {
            assertTrue(done[k] > 10, "operation kind " + k + " went through only " + done[k] + " times: " + java.util.Arrays.toString(done));
        }
    }

    private void join() {
        BusConnection c = (BusConnection) f.connect("c" + (++names));
        conns.add(c);
        received.put(c, new ArrayList<>());
        nextCall.put(c, 1L);
    }

    private void act(BusConnection c) throws BusException {
        String topic = TOPICS[rnd.nextInt(TOPICS.length)];
        String service = SERVICES[rnd.nextInt(SERVICES.length)];
        kind = rnd.nextInt(17);
        switch (kind) {
            case 0 -> c.declare(topic, rnd.nextInt(4) == 0 ? Retention.NONE : Retention.LATEST);
            case 1 -> {
                boolean latest = rnd.nextBoolean();
                c.subscribe(topic, latest ? SubscriptionMode.LATEST : SubscriptionMode.BOUNDED, latest ? 1 : 1 + rnd.nextInt(3),
                        1 + rnd.nextInt(2), rnd.nextBoolean());
            }
            case 2 -> {
                List<String> subs = new ArrayList<>(c.subscriptions.keySet());
                if (!subs.isEmpty()) {
                    c.unsubscribe(subs.get(rnd.nextInt(subs.size())));
                }
            }
            case 3, 4 -> {
                List<Attachment> as = attachments(c);
                if (c.publish(topic, "{\"r\":" + rnd.nextInt(1000) + "}", as).subscribers() > 0 && !as.isEmpty()) {
                    publishedWithArtifacts++;
                }
            }
            case 5, 6 -> {
                for (int i = rnd.nextInt(4); i >= 0; i--) {
                    BusMessage m = c.poll();
                    if (m != null) {
                        received.get(c).add(m);
                    }
                }
            }
            case 7 -> {
                List<String> ids = new ArrayList<>();
                for (BusMessage m : received.get(c)) {
                    String id = deliveryId(m);
                    if (id != null && rnd.nextBoolean()) {
                        ids.add(id);
                    }
                }
                if (!ids.isEmpty()) {
                    consumed += c.consumed(ids);
                }
            }
            case 8 -> {
                Replies.Allocated a = c.allocate(1 + rnd.nextInt(200), "x/y");
                f.store.write(a.staged().artifactId(), BusFixture.sized((int) a.staged().byteLength(), 'a'));
                if (rnd.nextBoolean()) {
                    c.seal(a.staged().artifactId(), 1, a.ownerId(), null);
                }
            }
            case 9 -> {
                Owner o = pick(c, false);
                if (o != null) {
                    c.retain(o.objects.get(0).ref, o.id);
                }
            }
            case 10 -> {
                Owner o = pick(c, true);
                if (o != null && !o.isDelivery()) {
                    c.release(List.of(o.id));
                }
            }
            case 11 -> c.register(service, 1 + rnd.nextInt(3), 1 + rnd.nextInt(2));
            case 12 -> {
                for (Service s : new ArrayList<>(c.services)) {
                    if (rnd.nextBoolean()) {
                        c.unregister(s.name, s.incarnation);
                    }
                }
            }
            case 13 -> {
                long n = nextCall.get(c);
                nextCall.put(c, n + 1);
                c.call("call-" + n, service, null, "M", "{}", attachments(c));
            }
            case 14 -> {
                for (BusMessage m : received.get(c)) {
                    if (m instanceof BusMessage.RpcRequest r && rnd.nextBoolean()) {
                        if (rnd.nextInt(4) == 0) {
                            c.releaseResponder(r.callId(), r.deliveryId());
                        } else {
                            if (c.reply(r.callId(), r.deliveryId(), "{}", attachments(c))) {
                                routedReplies++;
                            }
                        }
                        break;
                    }
                }
            }
            case 15 -> {
                long n = nextCall.get(c);
                if (n > 1) {
                    c.cancel("call-" + (1 + rnd.nextLong(n - 1)));
                }
            }
            default -> {
                switch (rnd.nextInt(6)) {
                    case 0 -> c.close();
                    case 1 -> c.clear(topic);
                    case 2 -> c.delete(topic);
                    default -> c.publish(topic, "{}", List.of());
                }
            }
        }
    }

    private List<Attachment> attachments(BusConnection c) {
        List<Attachment> out = new ArrayList<>();
        for (int i = rnd.nextInt(3); i > 0; i--) {
            Owner o = pick(c, true);
            if (o == null) {
                break;
            }
            ArtifactRef ref = o.kind == Owner.Kind.WRITER
                    ? new ArtifactRef(f.store.storeId(), o.staged.artifactId(), 1, o.staged.byteLength(), "")
                    : o.objects.get(rnd.nextInt(o.objects.size())).ref;
            out.add(new Attachment("a" + i, ref, o.id));
        }
        return out;
    }

    /** A random live owner of {@code c} that roots an object (or, if allowed, an unsealed writer). */
    private Owner pick(BusConnection c, boolean writers) {
        List<Owner> candidates = new ArrayList<>();
        for (Owner o : c.owners.all()) {
            if ((o.objects != null && !o.objects.isEmpty()) || (writers && o.kind == Owner.Kind.WRITER)) {
                candidates.add(o);
            }
        }
        return candidates.isEmpty() ? null : candidates.get(rnd.nextInt(candidates.size()));
    }

    private static String deliveryId(BusMessage m) {
        if (m instanceof BusMessage.TopicMessage t) {
            return t.deliveryId();
        }
        if (m instanceof BusMessage.RpcRequest r) {
            return r.deliveryId();
        }
        if (m instanceof BusMessage.RpcResult r) {
            return r.deliveryId();
        }
        return null;
    }

    private void check(String where) {
        Map<SealedObject, Integer> want = new IdentityHashMap<>();
        Map<Subscription, Integer> credits = new IdentityHashMap<>();
        Map<Service, Integer> inFlight = new IdentityHashMap<>();
        for (BusConnection c : f.bus.connections()) {
            long pool = 0;
            for (Owner o : c.owners.all()) {
                if (o.kind != Owner.Kind.WRITER) {
                    count(want, o.objects);
                }
                if (o.kind == Owner.Kind.TOPIC_DELIVERY) {
                    credits.merge(o.subscription, 1, Integer::sum);
                }
            }
            for (Call call : c.pendingResults) {
                count(want, call.result.objects);
            }
            for (Call call : c.replyAuthority.values()) {
                inFlight.merge(call.service, 1, Integer::sum);
            }
            for (Subscription s : c.subscriptions.values()) {
                assertEquals((int) credits.getOrDefault(s, 0), s.mode.inFlight(), where + " credits of " + s.id);
                assertTrue(s.mode.inFlight() <= s.mode.maxInFlight(), where);
                assertTrue(s.mode.size() <= s.mode.maxQueued(), where);
                if (!s.latest()) {
                    for (Topic.Entry e : s.mode.waiting()) {
                        pool += e.body().deliveryBytes;
                    }
                }
            }
            assertEquals(pool, c.boundedQueuedBytes, where + " pool of " + c.identity().clientId());
            assertTrue(pool <= f.bus.limits().maxBoundedQueuedBytesPerClient(), where);
            assertTrue(c.owners.size() <= f.bus.limits().maxOwnersPerClient(), where);
        }
        long retained = 0;
        for (Topic t : f.bus.topics.all()) {
            for (Subscription s : t.subscriptions) {
                for (Topic.Entry e : s.mode.waiting()) {
                    count(want, e.body().objects);
                }
            }
            if (t.retained != null) {
                count(want, t.retained.body().objects);
                retained += t.retained.body().artifactBytes();
            }
        }
        assertEquals(retained, f.bus.stats().retainedBytes(), where);
        for (Service s : f.bus.services.all()) {
            for (Call call : s.queue) {
                count(want, call.request.objects);
            }
            assertEquals((int) inFlight.getOrDefault(s, 0), s.inFlight, where + " in flight of " + s.name);
        }
        Map<Long, Integer> have = new HashMap<>();
        long total = 0;
        for (SealedObject o : f.bus.roots.objects()) {
            have.put(o.ref.artifactId(), o.roots);
            total += o.roots;
        }
        Map<Long, Integer> expected = new HashMap<>();
        long expectedTotal = 0;
        for (Map.Entry<SealedObject, Integer> e : want.entrySet()) {
            expected.put(e.getKey().ref.artifactId(), e.getValue());
            expectedTotal += e.getValue();
        }
        assertEquals(expected, have, where + " roots per object");
        assertEquals(expectedTotal, total, where);
        assertEquals(total, f.bus.stats().roots(), where);
        assertEquals(have.size(), f.store.objects(), where + " store objects");
    }

    private static void count(Map<SealedObject, Integer> want, List<SealedObject> objects) {
        for (SealedObject o : objects) {
            want.merge(o, 1, Integer::sum);
        }
    }
}
