package io.spectrum.cli;

import io.spectrum.cli.demo.ChildJvm;
import io.spectrum.host.history.HistoryReader;
import io.spectrum.host.history.HistoryRow;
import io.spectrum.host.history.HistorySettings;
import io.spectrum.host.runtime.HostRuntime;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.time.SystemClock;
import io.spectrum.wide.WideNode;
import io.spectrum.wire.StaleReason;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No gap when a board's link drops (docs/host.md "Backfill", docs/board.md "Store and forward"), with
 * real parts and real seconds: {@code spectrum board} in its own JVM with a board file whose
 * {@code /counter} counts every 100 ms and keeps its last 256 values, a host ({@link HostRuntime} on
 * the system clock, its history in a file) mounting it over UDP through a loopback relay of the
 * test's, and a live watcher of the host's copy. The relay drops every datagram both ways for a few
 * seconds (until the host has seen the board go); when it is back, the host's history gets every value
 * the board produced meanwhile, with the board's sequence and the time it was produced, and the
 * watcher none of them.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StoreAndForwardProcessTest {
    private static final String COUNTER = "/board1/counter";
    private static final long CUT_MILLIS = 3000;
    /** How far a backfilled row's time may lie outside the cut (the board's clock and this one, the relay's thread). */
    private static final long SLACK_MILLIS = 2000;
    private static final Pattern READY = Pattern.compile("b1 ready on udp 127\\.0\\.0\\.1:(\\d+)");

    /** A watcher's delivery and whether the relay was restored when it arrived. */
    private record Seen(HostRuntime.Delivery delivery, boolean afterRestore) {
        boolean liveValue() {
            return !delivery.stale() && delivery.value() != null && delivery.value().numeric();
        }

        long value() {
            return (long) delivery.value().number();
        }
    }

    @TempDir
    Path dir;
    private final List<AutoCloseable> closing = new ArrayList<>();
    private final List<String> boardOut = new CopyOnWriteArrayList<>();
    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    private volatile boolean restored;
    private HostRuntime host;

    @AfterEach
    void closeAll() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    /**
     * A loopback UDP relay between the host (its front) and the board (its back): one thread per
     * direction; while {@link #cut} is set every datagram is dropped, both ways, and neither end
     * learns of it but by silence. Closing the channels ends the threads.
     */
    static final class Relay implements AutoCloseable {
        private final DatagramChannel front;
        private final DatagramChannel back;
        private final InetSocketAddress board;
        private final List<Thread> threads = new ArrayList<>();
        private volatile SocketAddress hostAddress;
        volatile boolean cut;

        Relay(InetSocketAddress board) throws IOException {
            this.board = board;
            front = DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            back = DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            threads.add(pump("relay-to-board", front, true));
            threads.add(pump("relay-to-host", back, false));
            threads.forEach(Thread::start);
        }

        private Thread pump(String name, DatagramChannel in, boolean toBoard) {
            Thread t = new Thread(() -> {
                ByteBuffer buf = ByteBuffer.allocate(65536);
                try {
                    while (true) {
                        buf.clear();
                        SocketAddress from = in.receive(buf);
                        buf.flip();
                        if (toBoard) {
                            hostAddress = from;
                            if (!cut) {
                                back.send(buf, board);
                            }
                        } else if (board.equals(from) && !cut && hostAddress != null) {
                            front.send(buf, hostAddress);
                        }
                    }
                } catch (ClosedChannelException e) {
                    // closed: the relay is done
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }, name);
            t.setDaemon(true);
            return t;
        }

        InetSocketAddress address() throws IOException {
            return (InetSocketAddress) front.getLocalAddress();
        }

        @Override
        public void close() throws Exception {
            front.close();
            back.close();
            for (Thread t : threads) {
                t.join(5000);
            }
        }
    }

    private static long nowMs() {
        return SystemClock.INSTANCE.epochNanos() / 1_000_000L; // the host's clock
    }

    private void await(BooleanSupplier done, int seconds, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("never within " + seconds + " s: " + what + "; warnings " + warnings
                        + "; board output " + boardOut);
            }
            Thread.sleep(20);
        }
    }

    private boolean copyStale() {
        return host.onNodeThread(() -> host.node().isStale(NodePath.of(COUNTER)));
    }

    private List<HistoryRow> history() throws Exception {
        host.historyStore().flush();
        try (HistoryReader r = host.historyStore().reader()) {
            return r.rows(COUNTER, 0, Long.MAX_VALUE, 100_000);
        }
    }

    private List<HistoryRow> historyQuietly() {
        try {
            return history();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** True when the history holds each board sequence from {@code from} to {@code to}. */
    private boolean historyHolds(long from, long to) {
        java.util.Set<Long> seqs = new java.util.HashSet<>();
        for (HistoryRow r : historyQuietly()) {
            if (!r.stale()) {
                seqs.add(r.seq());
            }
        }
        for (long s = from; s <= to; s++) {
            if (!seqs.contains(s)) {
                return false;
            }
        }
        return true;
    }

    @Test
    void aBoardProcessCutOffForSeconds_theHostsHistoryGetsEveryValueItMissed_noneOfThemLive() throws Exception {
        Path file = dir.resolve("board.yaml");
        Files.writeString(file, String.join("\n",
                "name: b1",
                "period: 100ms",
                "backfill: 256",
                "vertices:",
                "  - path: /counter",
                "    type: u32",
                "    source: {kind: sim, wave: count}",
                ""));
        // both ends find the other silent within the cut (1.5 s), so the link really drops and comes back
        ChildJvm board = new ChildJvm("board", List.of("-Xmx64m"), List.of("board", "--udp", "127.0.0.1:0",
                "--config", file.toString(), "--ping", "300", "--timeout", "1500", "--exit-with-stdin"), boardOut::add);
        closing.add(board);
        int[] port = {-1};
        await(() -> {
            for (String l : boardOut) {
                Matcher m = READY.matcher(l);
                if (m.find()) {
                    port[0] = Integer.parseInt(m.group(1));
                    return true;
                }
            }
            return !board.isAlive();
        }, 60, "the board ready");
        assertTrue(port[0] > 0, "the board did not start: " + boardOut);

        Relay relay = new Relay(new InetSocketAddress("127.0.0.1", port[0]));
        closing.add(relay);

        host = new HostRuntime("host", new WideNode(HostRuntime.HOST_CONFIG));
        closing.add(host);
        host.onWarning(warnings::add);
        host.record(HistorySettings.of(dir.resolve(HistorySettings.FILE_NAME)));
        host.start();
        UdpLinkConfig quick = new UdpLinkConfig().peerTimeoutMillis(1500).pingIntervalMillis(300);
        host.mount(UdpLink.dial(2, relay.address(), quick, SystemClock.INSTANCE), "board1", List.of());
        host.watch(COUNTER, "live", d -> seen.add(new Seen(d, restored)));

        // live values flow, and reach the history
        await(() -> seen.stream().filter(Seen::liveValue).count() >= 10, 60, "live values; seen " + seen);
        await(() -> historyQuietly().stream().filter(r -> !r.stale()).count() >= 5, 30, "history rows");

        // the cut: at least CUT_MILLIS, and until the host has seen the board go
        long cutStart = nowMs();
        relay.cut = true;
        Thread.sleep(CUT_MILLIS);
        await(this::copyStale, 30, "the host sees the board go");
        assertEquals(StaleReason.BOARD_AWAY, host.onNodeThread(() -> host.node().staleReason(NodePath.of(COUNTER))));
        restored = true;
        long cutEnd = nowMs();
        relay.cut = false;

        // the first live value after the link is back
        await(() -> seen.stream().anyMatch(s -> s.afterRestore() && s.liveValue()), 30, "a live value after the cut");
        long lastBefore = seen.stream().filter(s -> !s.afterRestore() && s.liveValue()).mapToLong(Seen::value).max().orElseThrow();
        long firstAfter = seen.stream().filter(s -> s.afterRestore() && s.liveValue()).findFirst().orElseThrow().value();
        assertTrue(firstAfter - lastBefore > 10, "the board went on counting while cut off: " + lastBefore + " then " + firstAfter);

        // the counter's value and its board sequence move together: the offset is read from a live row
        long offset = history().stream().filter(r -> !r.stale()).findFirst()
                .map(r -> r.seq() - (long) r.value().number()).orElseThrow();
        long fromSeq = lastBefore + offset;
        long toSeq = firstAfter + offset;
        await(() -> host.backfilled()[2] == 0 && historyHolds(fromSeq, toSeq), 30,
                "the history caught up: seq " + fromSeq + ".." + toSeq);

        List<HistoryRow> rows = history();
        List<HistoryRow> values = rows.stream().filter(r -> !r.stale()).toList();
        List<Long> seqs = values.stream().map(HistoryRow::seq).toList();
        for (int i = 1; i < seqs.size(); i++) {
            assertEquals(seqs.get(i - 1) + 1, seqs.get(i), "contiguous and in order, none missing, none twice: " + seqs);
        }
        assertTrue(seqs.get(0) <= fromSeq && seqs.get(seqs.size() - 1) >= toSeq, seqs.toString());
        for (HistoryRow r : values) {
            assertEquals(r.seq() - offset, (long) r.value().number(), "the counter's value at seq " + r.seq());
            if (r.seq() > fromSeq && r.seq() < toSeq) {
                assertTrue(r.t() >= cutStart - SLACK_MILLIS && r.t() <= cutEnd + SLACK_MILLIS,
                        "seq " + r.seq() + " at the time the board produced it, inside the cut " + cutStart + ".." + cutEnd
                                + ": " + r.t());
            }
        }
        assertFalse(rows.stream().anyMatch(HistoryRow::isGap), "nothing lost: " + rows);
        assertTrue(rows.stream().anyMatch(r -> r.stale() && StaleReason.BOARD_AWAY.equals(r.reason())),
                "the board's absence is a row too");

        long missed = toSeq - fromSeq - 1;
        long[] backfilled = host.backfilled();
        assertTrue(backfilled[0] >= missed, "the values of the cut came from the board's ring: " + backfilled[0] + " of " + missed);
        assertEquals(0, backfilled[1], "none lost");

        // the watcher: after the link came back only values from the first one on, never one of the cut's
        for (Seen s : seen) {
            if (s.liveValue()) {
                long v = s.value();
                assertFalse(v > lastBefore && v < firstAfter, "a value of the cut delivered live: " + v);
                if (s.afterRestore()) {
                    assertTrue(v >= firstAfter, "a backfilled value delivered live after the link came back: " + v);
                }
            }
        }
        assertTrue(warnings.isEmpty(), warnings.toString());
    }
}
