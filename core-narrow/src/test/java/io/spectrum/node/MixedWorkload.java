package io.spectrum.node;

import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import io.spectrum.node.api.ValueListener;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.WireError;

/**
 * A steady-state mix of node operations with every frame and handle built up front: local writes
 * with fan-out (callback, subtree and remote edges), reads, handle toggles, and remote FWD
 * requests through a fake link (READ, WRITE, subscribe append, [N] toggle, [N] clear, AWAIT,
 * list read, :children[] read, composed READ of /sensor), plus ticks. Used by the allocation test and the Epsilon run.
 */
final class MixedWorkload {
    static final int OPS_PER_ROUND = 18;

    final ManualClock clock = new ManualClock(0);
    final NarrowNode node;
    final FakeLink link = new FakeLink(1);
    final NodePath temp = NodePath.of("/sensor/temp");
    final NodePath sensor = NodePath.of("/sensor");
    final Subscription toggled;
    final byte[] value = Frames.value(1234, 4);
    final byte[] readBuf = new byte[64];
    final byte[] remoteRead;
    final byte[] remoteWrite;
    final byte[] append;
    final byte[] suspend;
    final byte[] resume;
    final byte[] clear;
    final byte[] await;
    final byte[] list;
    final byte[] children;
    final byte[] composed;
    long delivered;

    private final ValueListener counter = (s, v, seq, stale) -> delivered += v.length();

    MixedWorkload() {
        node = new NarrowNode(NodeConfig.builder().clock(clock).build());
        node.attach(link);
        // a declared vertex: every write below, local and remote, passes the declaration gate
        check(node.declare(temp, io.spectrum.node.api.VertexSchema.value(4, false).unit("Cel").scale(0.01)
                .writable().build()));
        node.write(temp, value, 0, value.length);
        node.subscribe(temp, 0, counter);
        toggled = node.subscribe(temp, 0, counter);
        node.subscribe(sensor, 0, counter);
        node.subscribe(temp, 0x0200, counter); // a suspended edge: skipped
        byte[] route = NodePath.of("/client/standing").tlv();
        NodeHarness h = new NodeHarness();
        byte[] standing = h.subscribeReq("/client/standing", 0, false, false, route);
        link.inject(2, standing);
        node.poll();
        byte[] ep = NodePath.of("/client/ep").tlv();
        remoteRead = Frames.fwd(0, temp.tlv(), null, Frames.REPLY_EP);
        remoteWrite = Frames.fwd(1, temp.tlv(), null, Frames.REPLY_EP, Frames.value(99, 4));
        append = h.subscribeReq("/client/ep", 0x0021, true, false, ep);
        // temp holds callback edges at 0..2 and the standing remote edge at 3: the append lands at 4
        link.inject(3, append);
        node.poll();
        int pos = node.vt.slotCount(node.vt.find(temp.tlv(), 4, temp.bodyLength())) - 1;
        byte[] rec = Frames.subscriber("/client/ep", 0x0021, true, false);
        byte[] susp = rec.clone();
        susp[susp.length - 1] = 0x02; // high byte of the policy word: bit 9 set
        suspend = h.slotWrite(pos, -1, susp, ep);
        resume = h.slotWrite(pos, -1, rec, ep);
        clear = h.slotWrite(pos, -1, Frames.hex("09000000"), ep);
        await = Frames.fwd(2, temp.tlv(), null, Frames.REPLY_EP);
        list = h.listRead();
        children = ChildrenFieldTest.readChildren("/sensor", true);
        composed = Frames.fwd(0, sensor.tlv(), null, Frames.REPLY_EP);
        // one round to prove the frames do what they say
        link.inject(2, children);
        node.poll();
        if (Frames.parse(link.sentAt(link.sentCount - 1)).kind != io.spectrum.wire.FwdView.KIND_RESULT) {
            throw new IllegalStateException(":children[] read refused");
        }
        link.inject(2, composed);
        node.poll();
        if (Frames.parse(link.sentAt(link.sentCount - 1)).kind != io.spectrum.wire.FwdView.KIND_RESULT) {
            throw new IllegalStateException("composed read refused");
        }
        link.inject(2, remoteWrite);
        node.poll();
        if (Frames.parse(link.sentAt(link.sentCount - 1)).kind != io.spectrum.wire.FwdView.KIND_RESULT) {
            throw new IllegalStateException("remote write to the declared vertex refused");
        }
        link.inject(3, clear);
        node.poll();
    }

    /** Runs {@code rounds} rounds of {@link #OPS_PER_ROUND} operations; returns a checksum. */
    long run(long rounds) {
        long sum = 0;
        for (long r = 0; r < rounds; r++) {
            check(node.write(temp, value, 0, value.length)); // 1 fan-out: 3 callbacks + 1 remote edge
            sum += node.read(temp, readBuf, 0, readBuf.length); // 2
            check(toggled.suspend()); // 3
            check(toggled.resume()); // 4
            link.inject(2, remoteRead, 0, remoteRead.length); // 5
            link.inject(2, remoteWrite, 0, remoteWrite.length); // 6 remote write with fan-out
            link.inject(3, append, 0, append.length); // 7 subscribe
            link.inject(3, suspend, 0, suspend.length); // 8 toggle
            link.inject(3, resume, 0, resume.length); // 9 toggle
            link.inject(3, clear, 0, clear.length); // 10 clear
            link.inject(2, await, 0, await.length); // 11 await
            sum += node.poll();
            check(node.write(temp, value, 0, value.length)); // 12 answers the await
            link.inject(2, list, 0, list.length); // 13 list read
            link.inject(2, children, 0, children.length); // 17 :children[] read
            link.inject(2, composed, 0, composed.length); // 18 composed READ of /sensor
            sum += node.poll();
            sum += node.sequence(temp); // 14
            clock.advanceMillis(1);
            node.tick(); // 15
            sum += node.listenerCount(temp); // 16
        }
        return sum + delivered;
    }

    private static void check(int code) {
        if (code != WireError.OK) {
            throw new IllegalStateException("refused: " + WireError.identity(code));
        }
    }
}
