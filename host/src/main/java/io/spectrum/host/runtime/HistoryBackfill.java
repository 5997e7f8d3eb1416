package io.spectrum.host.runtime;

import io.spectrum.link.Link;
import io.spectrum.node.fwd.RemoteClient;
import io.spectrum.node.ServingNode;
import io.spectrum.node.api.NodePath;
import io.spectrum.wire.Backfill;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.Names;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.WireError;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * No gap in the history when a board's link drops (docs/host.md "Backfill"): the host follows, per
 * kept path, the board's sequence of the last value it recorded; when a board value arrives whose
 * sequence is more than one above it (the board came back after values it could not send, or a
 * delivery was lost), the values in between are asked from the board's backfill ring
 * (docs/extensions.md "Backfill") and written to the history store with the board's sequence and
 * origin time. They are never published on the node: the host's live copy and its subscribers see
 * only live values.
 *
 * <p>Only a board whose {@code $node/caps} offers {@code spectrum.backfill} (read once per board
 * while it stays up, with the announcement) is asked; a plain v1 peer never sees the request. What
 * the board no longer holds (more values missed than its ring keeps) is recorded as a gap row. One
 * request is out at a time; the jobs wait in a bounded queue. Node thread only.
 */
final class HistoryBackfill {
    /** How long a board's answer (caps or backfill) is awaited before the request is given up. */
    static final long ANSWER_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** Jobs waiting at most; past it a jump is recorded as a gap at once. */
    static final int MAX_JOBS = 1024;
    /** Paths whose last recorded board sequence is followed at most (then forgotten and learnt again). */
    static final int MAX_PATHS = 8192;
    private static final int ATTEMPTS = 3;

    /** Where the backfilled values and the gaps go (the history store). */
    interface Rows {
        /** A value the board kept: its board sequence, its time (epoch ms), the value TLV. */
        void value(String path, long boardSeq, long t, byte[] tlv, int off, int len);

        /** Board sequences {@code from..to} are not in the history and never will be. */
        void gap(String path, long from, long to, long t);
    }

    private static final class Job {
        final String path;
        final Mount mount;
        /** The last board sequence the history holds before the hole; moves on as answers come. */
        long after;
        /** The board sequence that was recorded live after the hole (not asked). */
        final long upTo;
        int attempts;

        Job(String path, Mount mount, long after, long upTo) {
            this.path = path;
            this.mount = mount;
            this.after = after;
            this.upTo = upTo;
        }
    }

    private final ServingNode node;
    private final Function<String, Mount> mounts;
    private final Rows rows;
    private final Consumer<String> warnings;
    private final Map<String, Long> last = new HashMap<>();
    private final ArrayDeque<Job> jobs = new ArrayDeque<>();
    /** Per mount: the depth its board offers (0: none), once its caps were read. */
    private final Map<Mount, Integer> offered = new HashMap<>();
    private final byte[] answer;
    private final TlvIndex index = new TlvIndex(4096, 8);
    private final FrameDecoder decoder = new FrameDecoder();
    private final Backfill reader = new Backfill();
    private Job current;
    /** The request out for the current job (caps or backfill), or -1. */
    private int request = -1;
    private boolean askingCaps;
    private long sentAt;
    /** When the answer being read arrived (node clock): its ages count back from there. */
    private long answeredAt;
    private long filled;
    private long lost;

    HistoryBackfill(ServingNode node, Function<String, Mount> mounts, Rows rows, int resultBytes, Consumer<String> warnings) {
        this.node = node;
        this.mounts = mounts;
        this.rows = rows;
        this.answer = new byte[resultBytes];
        this.warnings = warnings;
    }

    /**
     * A board value of {@code path} reached the history with the board's sequence {@code boardSeq}:
     * a jump over the last one recorded queues the values in between; a sequence that went back (the
     * board restarted and numbers from 1 again) queues its new values before this one.
     */
    void recorded(String path, long boardSeq) {
        if (boardSeq <= 0) {
            return;
        }
        if (last.size() >= MAX_PATHS && !last.containsKey(path)) {
            last.clear(); // bounded: learnt again from the next values
        }
        Long prev = last.put(path, boardSeq);
        if (prev == null || boardSeq == prev || boardSeq == prev + 1) {
            return;
        }
        long after = boardSeq > prev ? prev : 0;
        if (boardSeq - after < 2) {
            return;
        }
        Mount m = mounts.apply(path);
        if (m == null) {
            return; // not a board's: no one to ask
        }
        if (jobs.size() >= MAX_JOBS) {
            lost += boardSeq - after - 1;
            rows.gap(path, after + 1, boardSeq - 1, nowMs());
            return;
        }
        jobs.add(new Job(path, m, after, boardSeq));
    }

    /** The board sequence of the last value of {@code path} recorded, 0 when none is known. */
    long last(String path) {
        Long s = last.get(path);
        return s == null ? 0 : s;
    }

    /** The board behind {@code link} went down: its offer is read again when it is back. */
    void peerDown(Link link) {
        offered.keySet().removeIf(m -> m.link() == link);
    }

    /** Values written from boards' rings, and board sequences recorded as lost (tests, diagnostics). */
    long filled() {
        return filled;
    }

    long lost() {
        return lost;
    }

    /** Jobs waiting or under way. */
    int pending() {
        return jobs.size() + (current != null ? 1 : 0);
    }

    /** Moves the current job on (the loop's step). True when something was done. */
    boolean poll(long now) {
        boolean any = false;
        for (int guard = 0; guard < 16; guard++) {
            if (current == null) {
                current = jobs.poll();
                if (current == null) {
                    return any;
                }
            }
            if (!step(now)) {
                return any;
            }
            any = true;
        }
        return any;
    }

    /** One move of the current job; false when it waits for an answer. */
    private boolean step(long now) {
        Job j = current;
        RemoteClient rc = node.remote();
        Mount m = j.mount;
        if (request >= 0) {
            if (rc.requestState(request) != RemoteClient.DONE) {
                if (now - sentAt <= ANSWER_NANOS) {
                    return false;
                }
                rc.release(request); // a late answer is ignored
                request = -1;
                unanswered(j);
                return true;
            }
            answeredAt = rc.requestAnsweredAt(request);
            int code = rc.requestError(request);
            int n = code == WireError.OK ? rc.requestResult(request, answer, 0) : 0;
            rc.release(request);
            request = -1;
            boolean decoded = n > 0 && decoder.decode(answer, 0, n, index) == WireError.OK;
            if (askingCaps) {
                offered.put(m, decoded ? reader.offered(index, 0) : 0);
                return true;
            }
            if (!decoded || !reader.wrapAnswer(index, 0)) {
                done(); // refused (the path is gone, the board changed): nothing to add
                return true;
            }
            answered(j, now);
            return true;
        }
        if (!m.link().isPeerUp(m.peer())) {
            return false; // the board is away again: the job waits for it
        }
        Integer depth = offered.get(m);
        if (depth == null) {
            askingCaps = true;
            return send(rc.read(m.link(), m.peer(), CAPS), now);
        }
        if (depth <= 0) {
            done(); // the board keeps nothing (a plain v1 peer): never asked
            return true;
        }
        askingCaps = false;
        return send(rc.readBackfill(m.link(), m.peer(), NodePath.of(m.remote(j.path)), j.after), now);
    }

    private static final NodePath CAPS = NodePath.of(Names.CAPS_PATH);

    private boolean send(int k, long now) {
        if (k < 0) {
            unanswered(current); // the host's request table is full: tried again later
            return true;
        }
        request = k;
        sentAt = now;
        return true;
    }

    private void unanswered(Job j) {
        current = null;
        if (++j.attempts < ATTEMPTS) {
            jobs.add(j);
            return;
        }
        lost += j.upTo - j.after - 1;
        rows.gap(j.path, j.after + 1, j.upTo - 1, nowMs());
        warnings.accept("backfill of " + j.path + " after seq " + j.after + " not answered by the board; recorded as a gap");
    }

    /** Writes the answer's values in (after, upTo), the gap before them, and asks on when the frame was full. */
    private void answered(Job j, long now) {
        // the board's ages count back from when its answer arrived, on this host's clock
        long ms = nowMs() - Math.max(0, (node.clock().nanoTime() - answeredAt) / 1_000_000L);
        long gapTo = Math.min(reader.evicted(), j.upTo - 1);
        boolean gap = gapTo > j.after;
        long lastSeq = -1;
        boolean firstEntry = true;
        int got = 0;
        while (reader.next()) {
            long s = reader.seq();
            if (s <= j.after || s >= j.upTo) {
                continue;
            }
            long t = reader.origin() > 0 ? reader.origin() : ms - reader.age();
            if (firstEntry && gap) {
                rows.gap(j.path, j.after + 1, gapTo, t); // the hole lies before the first value kept
                lost += gapTo - j.after;
                gap = false;
            }
            firstEntry = false;
            int v = reader.value();
            rows.value(j.path, s, t, answer, index.start(v), index.untrailedLength(v));
            filled++;
            got++;
            lastSeq = s;
        }
        if (gap) {
            rows.gap(j.path, j.after + 1, gapTo, ms);
            lost += gapTo - j.after;
        }
        if (got > 0 && lastSeq < j.upTo - 1 && lastSeq < reader.last()) {
            j.after = lastSeq; // one frame's worth: ask on after the last one
            j.attempts = 0;
            return;
        }
        done();
    }

    private void done() {
        current = null;
    }

    private long nowMs() {
        return node.clock().epochNanos() / 1_000_000L;
    }
}
