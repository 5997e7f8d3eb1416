package io.spectrum.host.runtime;

import io.spectrum.host.history.HistoryReader;
import io.spectrum.host.history.HistoryRow;
import io.spectrum.host.history.HistorySettings;
import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.LinkStats;
import io.spectrum.link.LivenessProbe;
import io.spectrum.link.PeerListener;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.time.ManualClock;
import io.spectrum.wide.WideNode;
import io.spectrum.wire.StaleReason;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No gap when a link drops (docs/host.md "Backfill", docs/board.md "Store and forward"): a NARROW
 * board over UDP keeps producing while its link to the host is cut; when the link is back, the host
 * asks the board's ring for what it missed and writes it to its history with the board's sequence and
 * the time each value was produced, never to its live subscribers. Board and host each run on a
 * {@link ManualClock} (the board's a day off: its clock is never read for a time, only for ages),
 * both loops on the test's thread; the link is cut by a switch on the board's side, so the host's
 * liveness sees the board go and come back on its own clock.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StoreAndForwardTest {
    private static final String COPY = "/board1/sensor/temp";
    private final ManualClock hostClock = new ManualClock(1_000_000_000L);
    private final ManualClock boardClock = new ManualClock(-86_400_000_000_000L);
    private final List<AutoCloseable> closing = new ArrayList<>();
    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private final List<HostRuntime.Delivery> live = new CopyOnWriteArrayList<>();
    /** Board sequence -> the host's clock (ms) when the board produced it. */
    private final Map<Long, Long> producedAt = new TreeMap<>();
    @TempDir
    Path dir;
    private NarrowNode board;
    private CuttableLink boardLink;
    /** The host's end of the link (its dialer). */
    private UdpLink hostLink;
    private HostRuntime host;
    private IntSupplier cycle;

    @AfterEach
    void closeAll() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    /**
     * The board's link with a switch: while cut, nothing it sends leaves and nothing it receives reaches
     * the board (the socket stays open, so the link is the same when restored); it records every frame
     * that reached the board.
     */
    static final class CuttableLink implements Link {
        private final Link inner;
        private volatile boolean cut;
        final List<byte[]> received = new CopyOnWriteArrayList<>();

        CuttableLink(Link inner) {
            this.inner = inner;
        }

        void cut(boolean on) {
            cut = on;
        }

        boolean receivedContaining(String text) {
            for (byte[] f : received) {
                if (new String(f, StandardCharsets.ISO_8859_1).contains(text)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public int id() {
            return inner.id();
        }

        @Override
        public String name() {
            return inner.name();
        }

        @Override
        public int send(int peer, byte[] buf, int off, int len) {
            return cut ? WireError.OK : inner.send(peer, buf, off, len);
        }

        @Override
        public int poll(FrameHandler handler, int maxFrames) {
            return inner.poll((l, peer, buf, off, len) -> {
                if (!cut) {
                    received.add(java.util.Arrays.copyOfRange(buf, off, off + len));
                    handler.onFrame(this, peer, buf, off, len);
                }
            }, maxFrames);
        }

        @Override
        public int maxFrame() {
            return inner.maxFrame();
        }

        @Override
        public void setPeerListener(PeerListener listener) {
            inner.setPeerListener(new PeerListener() {
                @Override
                public void onPeerUp(Link l, int peer) {
                    listener.onPeerUp(CuttableLink.this, peer);
                }

                @Override
                public void onPeerDown(Link l, int peer) {
                    listener.onPeerDown(CuttableLink.this, peer);
                }
            });
        }

        @Override
        public void setLivenessProbe(LivenessProbe probe) {
            inner.setLivenessProbe(probe);
        }

        @Override
        public boolean isPeerUp(int peer) {
            return inner.isPeerUp(peer);
        }

        @Override
        public LinkStats stats() {
            return inner.stats();
        }

        @Override
        public void close() {
            inner.close();
        }
    }

    private static byte[] value(long v) {
        byte[] b = new byte[16];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.value(v, 2);
        return java.util.Arrays.copyOf(b, w.length());
    }

    private void start(int depth) throws Exception {
        UdpLinkConfig quick = new UdpLinkConfig().peerTimeoutMillis(3000).pingIntervalMillis(500);
        board = new NarrowNode(NodeConfig.builder().clock(boardClock).backfillDepth(depth).build());
        closing.add(board);
        assertEquals(WireError.OK, board.declare(NodePath.of("/sensor/temp"), VertexSchema.value(2, true).unit("Cel").build()));
        UdpLink udp = UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0), quick, boardClock);
        boardLink = new CuttableLink(udp);
        assertEquals(WireError.OK, board.attach(boardLink));

        host = new HostRuntime("host", new WideNode(HostRuntime.HOST_CONFIG.toBuilder().clock(hostClock).build()));
        host.onWarning(warnings::add);
        closing.add(host);
        host.record(HistorySettings.of(dir.resolve(HistorySettings.FILE_NAME)));
        cycle = host.startOnCallerThread();
        hostLink = UdpLink.dial(2, udp.localAddress(), quick, hostClock);
        host.mount(hostLink, "board1", List.of());
        host.watch(COPY, "live", live::add); // a live subscriber of the host: the host follows the board's vertex
    }

    /** Runs both loops, the clocks still, until {@code done} (bounded: the datagrams need a moment). */
    private void pumpUntil(BooleanSupplier done, String what) {
        for (int i = 0; i < 200_000; i++) {
            board.poll();
            board.tick();
            cycle.getAsInt();
            if (done.getAsBoolean()) {
                return;
            }
            Thread.onSpinWait();
        }
        throw new AssertionError("never: " + what + "; live " + live + "; warnings " + warnings);
    }

    /**
     * Moves both clocks on by {@code millis}, 100 ms at a time, running both loops a little at each
     * step (a liveness ping is answered well within the link's 3 s timeout).
     */
    private void advance(long millis) {
        for (long done = 0; done < millis; done += 100) {
            long step = Math.min(100, millis - done);
            hostClock.advanceMillis(step);
            boardClock.advanceMillis(step);
            for (int i = 0; i < 200; i++) {
                board.poll();
                board.tick();
                cycle.getAsInt();
                Thread.onSpinWait();
            }
        }
    }

    /** Moves both clocks on 100 ms at a time (the host's step runs each refresh period) until {@code done}. */
    private void advanceUntil(BooleanSupplier done, String what) {
        for (int i = 0; i < 300; i++) {
            if (done.getAsBoolean()) {
                return;
            }
            advance(100);
            for (int k = 0; k < 2_000 && !done.getAsBoolean(); k++) {
                board.poll();
                cycle.getAsInt();
                Thread.onSpinWait();
            }
        }
        throw new AssertionError("never: " + what + "; live " + live + "; warnings " + warnings);
    }

    private void produce(long v) {
        byte[] tlv = value(v);
        assertEquals(WireError.OK, board.write(NodePath.of("/sensor/temp"), tlv, 0, tlv.length));
        producedAt.put(board.sequence(NodePath.of("/sensor/temp")), hostClock.epochNanos() / 1_000_000L);
    }

    private boolean liveGot(long v) {
        return live.stream().anyMatch(d -> !d.stale() && d.value().numeric() && d.value().number() == v);
    }

    private boolean boardUp() {
        return hostLink.isPeerUp(0);
    }

    private boolean copyStale() {
        return host.onNodeThread(() -> host.node().isStale(NodePath.of(COPY)));
    }

    /** Values 1..3 linked, 4..(3 + missed) while cut, then the link back and one more: returns the last value. */
    private long cutAndRestore(int missed) {
        pumpUntil(() -> host.upstreamEdges().containsKey(COPY) && boardUp(), "the host follows the board");
        for (long v = 1; v <= 3; v++) {
            produce(v);
            long want = v;
            pumpUntil(() -> liveGot(want), "live value " + v);
            advance(1000);
        }
        boardLink.cut(true);
        for (int i = 0; i < 60 && !copyStale(); i++) {
            advance(100); // the host's liveness finds the board silent on its own clock
        }
        assertTrue(copyStale(), "the host saw the board go");
        assertEquals(StaleReason.BOARD_AWAY, host.onNodeThread(() -> host.node().staleReason(NodePath.of(COPY))));
        for (long v = 4; v < 4 + missed; v++) {
            produce(v); // the board keeps producing, one a second
            advance(1000);
        }
        boardLink.cut(false);
        for (int i = 0; i < 60 && !boardUp(); i++) {
            advance(100); // the host's dialer probes its down peer every ping interval
            pumpUntil(() -> true, "a round");
        }
        pumpUntil(this::boardUp, "the board back");
        long lastValue = 4 + missed;
        produce(lastValue);
        pumpUntil(() -> liveGot(lastValue), "the first value after the link came back");
        advanceUntil(() -> host.backfilled()[2] == 0, "the backfill done");
        return lastValue;
    }

    private List<HistoryRow> history() throws Exception {
        host.historyStore().flush();
        try (HistoryReader r = host.historyStore().reader()) {
            return r.rows(COPY, 0, Long.MAX_VALUE, 1000);
        }
    }

    @Test
    void aCutLink_theHostsHistoryGetsEveryValueOfThePeriodInOrder_withTheBoardsSeqAndTime_noneOfThemLive() throws Exception {
        start(64);
        long last = cutAndRestore(10);

        List<HistoryRow> rows = history();
        List<HistoryRow> values = rows.stream().filter(r -> !r.stale()).toList();
        assertEquals(LongStream.rangeClosed(1, last).boxed().toList(), values.stream().map(HistoryRow::seq).toList(),
                "every value of the period, in order, with the board's own sequence: " + rows);
        for (HistoryRow r : values) {
            assertEquals((double) r.seq(), r.value().number(), "value " + r.seq());
            assertEquals(producedAt.get(r.seq()), r.t(), "seq " + r.seq() + " at the time the board produced it");
            if (r.seq() > 3 && r.seq() < last) {
                assertEquals("°C", r.value().unit(), "a backfilled value rendered by the board's declaration");
            }
        }
        assertFalse(rows.stream().anyMatch(HistoryRow::isGap), "nothing missing: " + rows);
        assertTrue(rows.stream().anyMatch(r -> r.stale() && StaleReason.BOARD_AWAY.equals(r.reason())),
                "the stale mark while the board was away is a row too");

        List<Double> liveValues = live.stream().filter(d -> !d.stale()).map(d -> d.value().number()).distinct().toList();
        assertEquals(List.of(1.0, 2.0, 3.0, (double) last), liveValues,
                "the live subscriber got the live values only, never a backfilled one");
        assertEquals(10, host.backfilled()[0], "ten values came from the board's ring");
        assertEquals(last, (long) host.onNodeThread(() -> {
            byte[] b = new byte[16];
            int n = host.node().read(NodePath.of(COPY), b, 0, b.length);
            return n > 0 ? io.spectrum.client.ValueFormat.render(b, 0, n, null).raw().longValue() : -1L;
        }), "the host's live copy holds the board's current value");
        assertTrue(boardLink.receivedContaining("spectrum.backfill"), "the board was asked");
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void moreMissedThanTheRingHolds_theHistoryGetsTheNewestN_andTheGapIsARow() throws Exception {
        start(4);
        long last = cutAndRestore(10); // 4..13 while cut, 14 after: the ring holds 11..14

        List<HistoryRow> rows = history();
        List<Long> seqs = rows.stream().filter(r -> !r.stale()).map(HistoryRow::seq).toList();
        assertEquals(List.of(1L, 2L, 3L, 11L, 12L, 13L, 14L), seqs, "the newest 4 (the ring's): " + rows);
        List<HistoryRow> gaps = rows.stream().filter(HistoryRow::isGap).toList();
        assertEquals(1, gaps.size(), rows.toString());
        HistoryRow gap = gaps.get(0);
        assertEquals(4, gap.seq(), "the gap starts at the first value lost");
        assertEquals(HistoryRow.GAP + ": seq 4..10 (7 values)", gap.reason());
        assertEquals(producedAt.get(11L), gap.t(), "placed just before the first value kept");
        int at = rows.indexOf(gap);
        assertEquals(11, rows.get(at + 1).seq(), "read in order, the gap comes before what follows it");
        assertEquals(7, host.backfilled()[1]);
        assertEquals(14, last);
    }

    @Test
    void aBoardThatOffersNoBackfill_isNeverSentTheRequest() throws Exception {
        start(0); // a board that keeps nothing: its caps offer no spectrum.backfill, as a plain v1 peer's
        long last = cutAndRestore(5);
        List<Long> seqs = history().stream().filter(r -> !r.stale()).map(HistoryRow::seq).toList();
        assertEquals(List.of(1L, 2L, 3L, last), seqs, "only what the host received live");
        assertFalse(boardLink.receivedContaining("spectrum.backfill"), "the request bytes never reached the board");
        assertTrue(boardLink.receivedContaining("$node"), "the board's caps were read (which is how the host knew)");
        assertEquals(0, host.backfilled()[0]);
    }
}
