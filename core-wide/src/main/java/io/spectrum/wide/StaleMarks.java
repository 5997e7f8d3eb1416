package io.spectrum.wide;

import io.spectrum.time.Clock;
import io.spectrum.wire.StampView;
import io.spectrum.wire.StaleReason;
import io.spectrum.wire.Utf8;
import java.util.ArrayList;
import java.util.Arrays;

/**
 * The stale marks of a {@link WideNode}'s values and their purge: who may mark (the owner, an
 * upstream's stamp, the node itself when a publisher goes or a remote subscription has a gap), the
 * reason as the node holds it (UTF-8, cut at {@link StaleReason#MAX_BYTES}), the topic notice a new
 * mark or a changed reason sends, and the list of the node's own marks that {@link #purge} sweeps
 * once their grace on the injected clock is over (a purge is the node's notifying clear).
 */
final class StaleMarks {
    /** The node's own stale reasons as held (shared arrays, never written into). */
    private static final byte[] PUBLISHER_GONE = Utf8.bytes(StaleReason.PUBLISHER_GONE);
    private static final byte[] NOT_FOLLOWED = Utf8.bytes(StaleReason.NOT_FOLLOWED);
    private final WideNode node;
    private final WideFanout fanout;
    private final Clock clock;
    private final long staleGrace;
    /** The node's own marks (a departed publisher, a gap), which the purge sweeps. */
    private final ArrayList<Vertex> staleList = new ArrayList<>();
    /** The vertices one tick purged, told after the sweep (reused). */
    private final ArrayList<Vertex> purged = new ArrayList<>();

    StaleMarks(WideNode node, WideFanout fanout, Clock clock, long staleGrace) {
        this.node = node;
        this.fanout = fanout;
        this.clock = clock;
        this.staleGrace = staleGrace;
    }

    /** The owner's mark of v with {@code reason} (kept until the next publish); the topic notice when it changed. */
    void markByOwner(Vertex v, CharSequence reason) {
        if (markStale(v, clock.nanoTime(), reasonBytes(reason), true)) {
            fanout.topicNotice(v, false);
        }
    }

    /** An upstream's stale mark of v with the UTF-8 reason {@code b[off, +len)} (FwdStore#markStale). */
    void markUpstream(Vertex v, byte[] b, int off, int len, boolean kept) {
        if (markStale(v, clock.nanoTime(), reasonBytes(b, off, len), kept)) {
            fanout.topicNotice(v, false);
        }
    }

    /**
     * The stale mark a delivery of the node's own remote subscription carries in its stamp, stored
     * with the value it came with (the publish's own fan-out tells the edges: no topic notice here).
     */
    void markDelivered(Vertex v, StampView upstream) {
        markStale(v, clock.nanoTime(), reasonBytes(upstream.buffer(), upstream.reasonOffset(), upstream.reasonLength()),
                true);
    }

    /**
     * A remote subscription feeding v has a gap: v goes stale from now until its next delivery, and
     * the edges that take topic notices are told at once.
     */
    void markGap(Vertex v) {
        if (markStale(v, clock.nanoTime(), NOT_FOLLOWED, false)) {
            fanout.topicNotice(v, false);
        }
    }

    /**
     * Marks stale from {@code now} what a departed peer last published (a vertex this node declared
     * keeps its value, fresh: its value is the node's state) and forgets its list. Returns where its
     * marks start on the sweep's list, for {@link #noticeSince}.
     */
    int markPublished(WidePeer p, long now) {
        final int from = staleList.size();
        for (Vertex v : p.published) {
            if (v.schema == null) { // a vertex this node declared holds its state
                markStale(v, now, PUBLISHER_GONE, false);
            }
        }
        p.published.clear();
        return from;
    }

    /** Sends the stale notice of each mark {@link #markPublished} made from {@code from} on, if still stale. */
    void noticeSince(int from) {
        final int to = staleList.size();
        for (int i = from; i < to && i < staleList.size(); i++) { // after the marks: a listener may publish
            Vertex v = staleList.get(i);
            if (v.stale) {
                fanout.topicNotice(v, false);
            }
        }
    }

    /** An upstream's UTF-8 reason {@code b[off, +len)} as the node holds it: cut at {@link StaleReason#MAX_BYTES}. */
    private static byte[] reasonBytes(byte[] b, int off, int len) {
        int n = Math.min(len, StaleReason.MAX_BYTES);
        while (n < len && n > 0 && (b[off + n] & 0xC0) == 0x80) {
            n--; // never half a character
        }
        return Arrays.copyOfRange(b, off, off + n);
    }

    /** A reason as the node holds it: UTF-8 cut at {@link StaleReason#MAX_BYTES}. */
    private static byte[] reasonBytes(CharSequence reason) {
        byte[] b = new byte[StaleReason.MAX_BYTES];
        return Arrays.copyOf(b, StaleReason.encode(reason, b, 0));
    }

    /**
     * Marks v stale from {@code now} with {@code reason} when it holds a value (or, the owner's mark
     * only, when it is declared and holds none yet: no value yet, and why); the one place both
     * kinds of mark are made (NarrowNode's TopicState#markStale is the same rule). The node's own marks
     * ({@code byOwner} false: a departed publisher, a subscription gap) leave a stale vertex as it is and
     * are purged after the grace; the owner's mark is kept until the next publish and replaces the reason
     * of a stale vertex. True when the edges that take topic notices must be told (a new mark or a
     * changed reason).
     */
    private boolean markStale(Vertex v, long now, byte[] reason, boolean byOwner) {
        if (!v.hasValue() && !(byOwner && v.schema != null) || v.stale && !byOwner) {
            return false;
        }
        if (v.stale) {
            v.staleKept = true;
            if (Arrays.equals(v.staleReason, reason)) {
                return false;
            }
        } else {
            v.stale = true;
            v.staleKept = byOwner;
            v.staleSince = now;
            if (!byOwner) {
                staleList.add(v); // the purge sweep's list; an owner's mark is never purged
            }
        }
        v.staleReason = reason;
        node.tell(v, true, reason);
        return true;
    }

    /** Clears v's stale mark (a publish, a clear, a purge). */
    static void clear(Vertex v) {
        v.stale = false;
        v.staleKept = false;
        v.staleReason = null;
    }

    /**
     * Purges the values whose publisher did not come back within the grace: the node's notifying
     * clear (the value goes, a fresh sequence number is spent and the delete notice goes to the
     * edges that take topic notices). A declared vertex (its own declaration or a reported one) is
     * never purged: it stays stale until a fresh value comes. An owner's mark, or a mark a publish
     * cleared, leaves the list.
     */
    void purge(long now) {
        purged.clear();
        for (int i = staleList.size() - 1; i >= 0; i--) {
            Vertex v = staleList.get(i);
            if (v.stale && !v.staleKept && now - v.staleSince < staleGrace) {
                continue;
            }
            if (v.stale && !v.staleKept && v.schema == null && v.reported == null) { // a declared vertex is kept, stale
                node.dropValue(v);
                clear(v);
                v.seq++;
                purged.add(v);
            }
            staleList.set(i, staleList.get(staleList.size() - 1));
            staleList.remove(staleList.size() - 1);
        }
        for (int i = 0; i < purged.size(); i++) { // after the sweep: a listener may touch staleList
            fanout.topicNotice(purged.get(i), true);
        }
        purged.clear();
    }
}
