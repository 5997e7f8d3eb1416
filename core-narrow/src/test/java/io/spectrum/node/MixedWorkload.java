package io.spectrum.node;

import io.spectrum.testing.MemoryLink;
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
 * list read, :children[] read, composed READ of /sensor, a backfill READ of the declared vertex's
 * ring, which every write also pushes into), plus ticks. Used by the allocation test and the Epsilon run.
 */
final class MixedWorkload {
    static final int OPS_PER_ROUND = 28;

    final ManualClock clock = new ManualClock(0);
    final NarrowNode node;
    final MemoryLink link = new MemoryLink(1);
    final NodePath temp = NodePath.of("/sensor/temp");
    final NodePath sensor = NodePath.of("/sensor");
    final Subscription toggled;
    final byte[] value = Frames.value(1234, 4);
    final byte[] readBuf = new byte[64];
    final byte[] remoteRead;
    final byte[] remoteWrite;
    /** The remote write not retained (docs/extensions.md, "Announcement key spectrum.retain"). */
    final byte[] remoteWriteNotRetained;
    final byte[] append;
    final byte[] suspend;
    final byte[] resume;
    final byte[] clear;
    final byte[] await;
    final byte[] list;
    final byte[] children;
    final byte[] composed;
    /** Peer 4 holds with a token (docs/security.md): its append and clear carry it; a forger's clear does not. */
    final byte[] tokenAppend;
    final byte[] tokenClear;
    final byte[] forgedClear;
    /** A durable subtree append on /sensor that asked for the path: its latch replays the subtree; then its clear. */
    final byte[] subtreeAppend;
    final byte[] subtreeClear;
    /** Peer 7 asks the values /sensor/temp kept after seq 1 (docs/extensions.md "Backfill"): the ring's answer. */
    final byte[] backfillRead;
    /** A remote subscription at peer 5, which never answers: each verify re-sends its append. */
    final int unanswered;
    long delivered;
    /** A source's failure text, composed once and reused (a CharSequence: marking copies it, allocates nothing). */
    final StringBuilder failure = new StringBuilder("i2c 1/0x48 reg 0: read 0 of 2 bytes");

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
        // a subtree subscriber of /sensor (peer 6) that asked for the stamp with the written path
        byte[] tree = NodePath.of("/client/tree").tlv();
        link.inject(6, Frames.fwd(1, sensor.tlv(), Frames.subsField(-1, 1, -1), tree,
                Frames.subscriber("/client/tree", 0, false, 3)));
        node.poll();
        byte[] subtreeEp = NodePath.of("/client/subtree").tlv();
        subtreeAppend = Frames.fwd(1, sensor.tlv(), Frames.subsField(-1, 1, -1), subtreeEp,
                Frames.subscriber("/client/subtree", 0x0020, true, 3));
        link.inject(3, subtreeAppend);
        node.poll();
        int subtreePos = node.vt.slotCount(node.vt.find(sensor.tlv(), 4, sensor.bodyLength())) - 1;
        subtreeClear = Frames.fwd(1, sensor.tlv(), Frames.subsField(subtreePos, 1, -1), subtreeEp, Frames.hex("09000000"));
        link.inject(3, subtreeClear);
        node.poll();
        if (Frames.parse(link.sentAt(link.sentCount() - 1)).kind != io.spectrum.wire.FwdView.KIND_RESULT) {
            throw new IllegalStateException("subtree clear refused");
        }
        byte[] ep = NodePath.of("/client/ep").tlv();
        remoteRead = Frames.fwd(0, temp.tlv(), null, Frames.REPLY_EP);
        remoteWrite = Frames.fwd(1, temp.tlv(), null, Frames.REPLY_EP, Frames.value(99, 4));
        remoteWriteNotRetained = Frames.notRetained(Frames.fwd(1, temp.tlv(), null, Frames.REPLY_EP, Frames.value(98, 4)));
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
        if (Frames.parse(link.sentAt(link.sentCount() - 1)).kind != io.spectrum.wire.FwdView.KIND_RESULT) {
            throw new IllegalStateException(":children[] read refused");
        }
        link.inject(2, composed);
        node.poll();
        if (Frames.parse(link.sentAt(link.sentCount() - 1)).kind != io.spectrum.wire.FwdView.KIND_RESULT) {
            throw new IllegalStateException("composed read refused");
        }
        link.inject(2, remoteWrite);
        node.poll();
        if (Frames.parse(link.sentAt(link.sentCount() - 1)).kind != io.spectrum.wire.FwdView.KIND_RESULT) {
            throw new IllegalStateException("remote write to the declared vertex refused");
        }
        link.inject(3, clear);
        node.poll();
        // peer 4: challenged, then holding with its token
        byte[] ep4 = NodePath.of("/holder/ep").tlv();
        byte[] append4 = h.subscribeReq("/holder/ep", 0x0021, true, false, ep4);
        link.inject(4, HolderTokenTest.withHold(append4, 0));
        node.poll();
        Frames.Reply challenge = Frames.parse(link.sentAt(link.sentCount() - 1));
        long token = new io.spectrum.wire.Extensions().holdToken(challenge.idx, challenge.trailing);
        if (challenge.errorCode() != WireError.ACCESS_DENIED || token <= 0) {
            throw new IllegalStateException("no challenge");
        }
        tokenAppend = HolderTokenTest.withHold(append4, token);
        link.inject(4, tokenAppend);
        node.poll();
        Frames.Reply admitted = Frames.parse(link.sentAt(link.sentCount() - 1));
        if (admitted.kind != io.spectrum.wire.FwdView.KIND_RESULT) {
            throw new IllegalStateException("token append refused");
        }
        int pos4 = (int) admitted.idx.valueAsLong(admitted.idx.child(admitted.payload, 1));
        byte[] clear4 = h.slotWrite(pos4, -1, Frames.hex("09000000"), ep4);
        tokenClear = HolderTokenTest.withHold(clear4, token);
        forgedClear = HolderTokenTest.withHold(clear4, 0);
        link.inject(4, forgedClear);
        node.poll();
        if (Frames.parse(link.sentAt(link.sentCount() - 1)).errorCode() != WireError.ACCESS_DENIED) {
            throw new IllegalStateException("forged clear admitted");
        }
        link.inject(4, tokenClear);
        node.poll();
        if (Frames.parse(link.sentAt(link.sentCount() - 1)).kind != io.spectrum.wire.FwdView.KIND_RESULT) {
            throw new IllegalStateException("token clear refused");
        }
        byte[] ask = new byte[128];
        io.spectrum.wire.TlvWriter aw = new io.spectrum.wire.TlvWriter().wrap(ask, 0, ask.length);
        io.spectrum.wire.Extensions.announceAskingBackfill(aw, 0, 1);
        backfillRead = Frames.fwd(0, temp.tlv(), null, Frames.REPLY_EP, java.util.Arrays.copyOf(ask, aw.length()));
        for (int i = 0; i < 20; i++) {
            node.write(temp, value, 0, value.length); // the ring full: every later write pushes one out
        }
        link.inject(7, backfillRead);
        node.poll();
        Frames.Reply filled = Frames.parse(link.sentAt(link.sentCount() - 1));
        io.spectrum.wire.Backfill bf = new io.spectrum.wire.Backfill();
        int entries = 0;
        if (filled.kind == io.spectrum.wire.FwdView.KIND_RESULT && bf.wrapAnswer(filled.idx, filled.payload)) {
            while (bf.next()) {
                entries++;
            }
        }
        if (entries != 16) {
            throw new IllegalStateException("backfill answered " + entries + " values, not the ring's 16");
        }
        unanswered = node.subscribeRemote(link, 5, temp, NodePath.of("/mirror/temp"), 0x0020);
        if (unanswered < 0) {
            throw new IllegalStateException("remote subscribe refused");
        }
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
            link.inject(2, remoteWriteNotRetained, 0, remoteWriteNotRetained.length); // 6b not retained: fan-out, no store
            link.inject(3, append, 0, append.length); // 7 subscribe
            link.inject(3, suspend, 0, suspend.length); // 8 toggle
            link.inject(3, resume, 0, resume.length); // 9 toggle
            link.inject(3, clear, 0, clear.length); // 10 clear
            link.inject(2, await, 0, await.length); // 11 await
            sum += node.poll();
            check(node.write(temp, value, 0, value.length)); // 12 answers the await
            check(node.write(temp, value, 0, value.length, false)); // 12b the owner's non-retained write
            // 23 the owner marks it stale with a reason: notices to the callbacks and the stamped
            // subtree subscriber (the reason in its stamp); the next round's write clears it
            check(node.markStale(temp, (r & 1) == 0 ? failure : io.spectrum.wire.StaleReason.SEQUENCE_GAP));
            link.inject(2, list, 0, list.length); // 13 list read
            link.inject(2, children, 0, children.length); // 17 :children[] read
            link.inject(2, composed, 0, composed.length); // 18 composed READ of /sensor
            link.inject(4, tokenAppend, 0, tokenAppend.length); // 19 a token holder appends
            link.inject(4, forgedClear, 0, forgedClear.length); // 20 a forged clear: the challenge
            link.inject(4, tokenClear, 0, tokenClear.length); // 21 the holder clears
            link.inject(3, subtreeAppend, 0, subtreeAppend.length); // 24 a durable subtree append: the subtree's replay
            link.inject(3, subtreeClear, 0, subtreeClear.length); // 25 and its clear
            link.inject(7, backfillRead, 0, backfillRead.length); // 26 a backfill READ: the ring's 16 values
            sum += node.poll();
            sum += node.remote().verify(link, 5); // 22 a slot check: the unanswered append again
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
