package io.spectrum.host.runtime;

import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.testing.MemoryLink;
import io.spectrum.time.ManualClock;
import io.spectrum.wide.WideNode;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The host's upstream timers run on the node's clock: on a {@link ManualClock}, with the host's loop
 * run on the test's thread ({@link HostRuntime#startOnCallerThread}), an unanswered append is sent
 * again once 2 s have passed and not before, and a refused one is tried again once 10 s have passed
 * and not before. No thread, no sleep: the clock moves only when the test says so.
 */
class HostTimersOnAManualClockTest {
    /** The host's periodic step (where the edges are kept) runs at least this often. */
    private static final long REFRESH_MILLIS = 100;
    private final ManualClock clock = new ManualClock(1_000_000_000L);
    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private HostRuntime host;
    private NarrowNode board;

    @AfterEach
    void close() {
        if (host != null) {
            host.close();
        }
        if (board != null) {
            board.close();
        }
    }

    /** The host on the manual clock, board link {@code toBoard} mounted as /board1, run by the returned cycle. */
    private IntSupplier host(MemoryLink toBoard) {
        return host(toBoard, List.of());
    }

    /** The same, the board's top-level names given (a board whose root cannot be listed). */
    private IntSupplier host(MemoryLink toBoard, List<String> top) {
        host = new HostRuntime("host", new WideNode(HostRuntime.HOST_CONFIG.toBuilder().clock(clock).build()));
        host.onWarning(warnings::add);
        IntSupplier cycle = host.startOnCallerThread();
        host.mount(toBoard, "board1", top);
        return cycle;
    }

    /**
     * Appends to {@code :subscribers} of /sensor/temp the host sent the board so far: WRITEs (the
     * liveness probe's slot checks are READs of the same field).
     */
    private static int appends(MemoryLink toBoard) {
        int n = 0;
        for (byte[] f : toBoard.sent()) {
            String s = new String(f, StandardCharsets.ISO_8859_1);
            if ("WRITE".equals(FwdView.opName(FwdView.peekOpcode(f, 0, f.length)))
                    && s.contains("subscribers") && s.contains("temp")) {
                n++;
            }
        }
        return n;
    }

    /** Advances the clock by {@code millis} and runs the loop until it has nothing left to do. */
    private void advance(IntSupplier cycle, long millis) {
        clock.advanceMillis(millis);
        for (int i = 0; i < 100 && cycle.getAsInt() > 0; i++) {
            // the queued tasks and answers of this instant
        }
        cycle.getAsInt(); // the step at this instant
    }

    @Test
    void anUnansweredAppendIsSentAgainAfterTwoSecondsOfTheHostsClock() {
        MemoryLink[] pair = MemoryLink.pair();
        IntSupplier cycle = host(pair[0]); // the board never answers: pair[1] is not polled
        host.watch("/board1/sensor/temp", "test", null);
        advance(cycle, 0);
        assertEquals(1, appends(pair[0]), "one append as the vertex gets its first subscriber");
        assertEquals(Map.of("/board1/sensor/temp", 0), host.upstreamEdges());

        advance(cycle, Upstream.RESEND_NANOS / 1_000_000L - 100);
        assertEquals(1, appends(pair[0]), "not re-sent before 2 s");
        advance(cycle, 200);
        assertEquals(2, appends(pair[0]), "re-sent once 2 s passed unanswered");
        assertEquals(Map.of("/board1/sensor/temp", 0), host.upstreamEdges(), "the same edge, waiting for its answer");
    }

    @Test
    void aRefusedAppendIsTriedAgainAfterTenSecondsOfTheHostsClock() {
        MemoryLink[] pair = MemoryLink.pair();
        board = new NarrowNode(NodeConfig.builder().clock(clock).build()); // has no /sensor/temp: refuses the append
        assertEquals(WireError.OK, board.attach(pair[1]));
        IntSupplier cycle = host(pair[0]);
        host.watch("/board1/sensor/temp", "test", null);
        advance(cycle, 0);
        assertEquals(1, appends(pair[0]));
        board.poll(); // the board answers: refused
        advance(cycle, REFRESH_MILLIS);
        int refusal = host.upstreamEdges().get("/board1/sensor/temp");
        assertNotEquals(0, refusal, "the board's refusal is kept on the edge");

        advance(cycle, Upstream.RETRY_REFUSED_NANOS / 1_000_000L - 100);
        assertEquals(1, appends(pair[0]), "not retried before 10 s");
        assertEquals(refusal, host.upstreamEdges().get("/board1/sensor/temp"));
        advance(cycle, 200);
        assertEquals(2, appends(pair[0]), "retried once 10 s passed");
        assertEquals(0, host.upstreamEdges().get("/board1/sensor/temp"), "the retry waits for the board's answer");
        board.poll();
        advance(cycle, REFRESH_MILLIS);
        assertNotEquals(0, host.upstreamEdges().get("/board1/sensor/temp"), "refused again");
    }

    /** READs of {@code :children} the host sent the board so far (its walk's listings). */
    private static int listings(MemoryLink toBoard) {
        int n = 0;
        for (byte[] f : toBoard.sent()) {
            String s = new String(f, StandardCharsets.ISO_8859_1);
            if ("READ".equals(FwdView.opName(FwdView.peekOpcode(f, 0, f.length))) && s.contains("children")) {
                n++;
            }
        }
        return n;
    }

    @Test
    void aWalkTheBoardDidNotAnswerStartsAgainAfter3ThenAfter6SecondsNotHalfAMinute() {
        MemoryLink[] pair = MemoryLink.pair();
        IntSupplier cycle = host(pair[0]); // the board never answers: a board still starting
        advance(cycle, 0);
        assertEquals(1, listings(pair[0]), "the walk lists the board's root once the mount is made");

        advance(cycle, 3_100); // 3 s without an answer: the walk gives up, says so, and waits 3 s
        assertTrue(warnings.stream().anyMatch(w -> w.contains("did not answer the listing") && w.contains("again in 3 s")),
                warnings.toString());
        advance(cycle, 2_800);
        assertEquals(1, listings(pair[0]), "not listed again before 3 s");
        advance(cycle, 300);
        assertEquals(2, listings(pair[0]), "listed again 3 s after giving up");

        advance(cycle, 3_100); // unanswered again (told once, not again): now 6 s
        assertEquals(1, warnings.stream().filter(w -> w.contains("did not answer the listing")).count(), warnings.toString());
        advance(cycle, 5_800);
        assertEquals(2, listings(pair[0]), "not before 6 s");
        advance(cycle, 300);
        assertEquals(3, listings(pair[0]), "listed again 6 s after giving up the second time");
    }

    /**
     * A board that answers every listing but one (a frame lost on the line): only that one is asked
     * again, 3 s later, and the walk completes with every vertex, no "did not answer" line and no
     * restart of the whole walk after a pause.
     */
    @Test
    void aListingLostWhileTheBoardAnswersOthersIsAskedAgainAndTheWalkCompletes() {
        MemoryLink[] hostSide = MemoryLink.pair(); // the host's end; hostSide[1] is not polled
        MemoryLink[] boardSide = MemoryLink.pair(); // the board's end, fed by the relay below
        board = new NarrowNode(NodeConfig.builder().clock(clock).build());
        assertEquals(WireError.OK, board.declare(NodePath.of("/sensor/temp"), VertexSchema.value(2, true).build()));
        assertEquals(WireError.OK, board.declare(NodePath.of("/sensor/hum"), VertexSchema.value(2, true).build()));
        assertEquals(WireError.OK, board.attach(boardSide[1]));
        IntSupplier cycle = host(hostSide[0], List.of("sensor"));
        int[] relayed = {0, 0}; // frames relayed host -> board, board -> host
        boolean[] dropped = {false};
        Runnable relay = () -> {
            List<byte[]> toBoard = hostSide[0].sent();
            for (; relayed[0] < toBoard.size(); relayed[0]++) {
                byte[] f = toBoard.get(relayed[0]);
                String s = new String(f, StandardCharsets.ISO_8859_1);
                if (!dropped[0] && s.contains("hum") && s.contains("children")) {
                    dropped[0] = true; // lost on the line, once
                    continue;
                }
                boardSide[1].inject(f);
            }
            board.poll();
            List<byte[]> toHost = boardSide[1].sent();
            for (; relayed[1] < toHost.size(); relayed[1]++) {
                hostSide[0].inject(toHost.get(relayed[1]));
            }
        };
        for (int i = 0; i < 10; i++) { // the walk's listings and their answers, a step at a time
            advance(cycle, REFRESH_MILLIS);
            relay.run();
        }
        assertTrue(dropped[0], "the listing of /sensor/hum went out and was lost");
        assertFalse(host.boardVertices().containsKey("/board1/sensor/hum"), "the walk waits for it");
        int before = listings(hostSide[0]);

        advance(cycle, 3_100); // unanswered for 3 s while the board answered the others
        relay.run();
        for (int i = 0; i < 10; i++) {
            advance(cycle, REFRESH_MILLIS);
            relay.run();
        }
        assertEquals(before + 1, listings(hostSide[0]), "only the lost listing is asked again");
        assertEquals(Map.of("/board1/sensor", false, "/board1/sensor/hum", true, "/board1/sensor/temp", true),
                host.boardVertices(), "the walk completed with every vertex");
        assertTrue(warnings.stream().noneMatch(w -> w.contains("did not answer the listing")), warnings.toString());
    }
}
