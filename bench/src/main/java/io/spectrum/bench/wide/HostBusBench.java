package io.spectrum.bench.wide;

import io.spectrum.time.ManualClock;
import io.spectrum.bus.protocol.ArtifactRef;
import io.spectrum.bus.store.ArtifactStore;
import io.spectrum.bus.protocol.Attachment;
import io.spectrum.bus.state.BusConnection;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.bus.protocol.BusMessage;
import io.spectrum.wide.Grants;
import io.spectrum.bus.state.HostBus;
import io.spectrum.bus.state.Replies;
import io.spectrum.bus.protocol.Retention;
import io.spectrum.bus.store.SealJob;
import io.spectrum.bus.store.StagedArtifact;
import io.spectrum.bus.protocol.SubscriptionMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The host bus state machine alone, no transport and no file I/O: how many operations a
 * second its single thread admits. Three cases, in interleaved rounds, medians printed:
 * <ul>
 *   <li>{@code publish x3}: one publish to 3 bounded subscribers, each polls and consumes its delivery;</li>
 *   <li>{@code publish x3 + artifact}: the same with one sealed artifact attached (roots per delivery);</li>
 *   <li>{@code rpc}: call, dispatch, reply, result, and both deliveries consumed.</li>
 * </ul>
 * The store is a stub that keeps no bytes, so the figures are the bus's bookkeeping only. Run:
 * {@code java -cp bench/target/benchmarks.jar io.spectrum.bench.wide.HostBusBench [seconds] [rounds]}
 */
public final class HostBusBench {
    /** A seal job with no bytes to copy. */
    record StubJob(long artifactId, long gen) implements SealJob {
        public void run() { }
    }

    /** A store that keeps ids and sizes only. */
    static final class StubStore implements ArtifactStore {
        private long next;
        private int objects;
        private long bytes;

        public String storeId() { return "bench"; }
        public Path root() { return Path.of("/bench"); }
        public StagedArtifact allocate(long n, String ct) { bytes += n; return new StagedArtifact(++next, 1, n, ct, "s/" + next); }
        public SealJob beginSeal(long id, long gen, String digest) { return new StubJob(id, gen); }
        public ArtifactRef finishSeal(SealJob j) { objects++; return new ArtifactRef("bench", j.artifactId(), ((StubJob) j).gen, 1, "0".repeat(64)); }
        public void cancelSeal(SealJob j) { }
        public void check(ArtifactRef ref) { }
        public String readLocation(long id) { return "r/" + id; }
        public void abandon(long id) { }
        public void collect(long id) { objects--; bytes--; }
        public int objects() { return objects; }
        public String resourceName() { return "bus.store"; }
        public long inUse() { return bytes; }
        public long capacity() { return Long.MAX_VALUE; }
        public long peak() { return bytes; }
        public long refused() { return 0; }
        public long dropped() { return 0; }
        public void close() { }
    }

    interface Case {
        void once() throws BusException;
    }

    /**
     * Runs the three cases in interleaved rounds and prints the medians; arguments {@code [seconds] [rounds]}
     * (defaults 2, 5).
     */
    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 2;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        String[] names = {"publish x3", "publish x3 + artifact", "rpc"};
        List<List<Double>> rates = new ArrayList<>();
        for (int i = 0; i < names.length; i++) {
            rates.add(new ArrayList<>());
        }
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < names.length; k++) {
                int c = (k + r) % names.length;
                rates.get(c).add(run(build(c), seconds));
            }
        }
        for (int k = 0; k < names.length; k++) {
            double[] v = rates.get(k).stream().mapToDouble(Double::doubleValue).sorted().toArray();
            System.out.printf("%-24s median %,.0f ops/s (min %,.0f, max %,.0f, %d rounds of %.1f s)%n", names[k],
                    v[v.length / 2], v[0], v[v.length - 1], v.length, seconds);
        }
    }

    static double run(Case c, double seconds) throws BusException {
        for (int i = 0; i < 20_000; i++) {
            c.once();
        }
        long n = 0;
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        long now;
        do {
            for (int i = 0; i < 1_000; i++) {
                c.once();
            }
            n += 1_000;
            now = System.nanoTime();
        } while (now < end);
        return n / ((now - start) / 1e9);
    }

    static Case build(int which) throws BusException {
        HostBus bus = new HostBus(new StubStore(), new ManualClock(0), BusLimits.defaults());
        BusConnection pub = bus.connect("pub", Grants.open());
        if (which == 2) {
            BusConnection svc = bus.connect("svc", Grants.open());
            svc.register("bench.echo", 16, 16);
            long[] serial = {0};
            return () -> {
                pub.call("call-" + (++serial[0]), "bench.echo", null, "Echo", "{}", List.of());
                BusMessage.RpcRequest req = (BusMessage.RpcRequest) svc.poll();
                svc.reply(req.callId(), req.deliveryId(), "{}", List.of());
                svc.consumed(List.of(req.deliveryId()));
                BusMessage.RpcResult res = (BusMessage.RpcResult) pub.poll();
                pub.consumed(List.of(res.deliveryId()));
            };
        }
        pub.declare("bench.t", Retention.NONE);
        BusConnection[] subs = new BusConnection[3];
        for (int i = 0; i < subs.length; i++) {
            subs[i] = bus.connect("sub" + i, Grants.open());
            subs[i].subscribe("bench.t", SubscriptionMode.BOUNDED, 64, 16, false);
        }
        List<Attachment> attachments;
        if (which == 1) {
            Replies.Allocated a = pub.allocate(1, "x/y");
            Replies.Sealed s = pub.seal(a.staged().artifactId(), 1, a.ownerId(), null);
            attachments = List.of(new Attachment("frame", s.ref(), s.ownerId()));
        } else {
            attachments = List.of();
        }
        String payload = "{\"n\":1}";
        return () -> {
            pub.publish("bench.t", payload, attachments);
            for (BusConnection s : subs) {
                BusMessage.TopicMessage m = (BusMessage.TopicMessage) s.poll();
                s.consumed(List.of(m.deliveryId()));
            }
        };
    }

    private HostBusBench() {
    }
}
