package io.spectrum.runtime;

import io.spectrum.link.Link;
import io.spectrum.link.LinkStats;
import io.spectrum.link.NodeLinkStats;
import io.spectrum.node.api.Node;
import io.spectrum.stats.BoundedResource;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.ToLongBiFunction;

/**
 * Rate-limited overload warnings for the log: every drop, refusal and eviction
 * counter of every link and every node pool is compared with what was last reported; a counter
 * that moved gets one line, and each counter at most one line per {@code periodNanos} (what
 * happens in between is summed into the next line). Runs on the node thread from the loop's stats
 * period; reading the counters allocates nothing, a line is built only when one is printed.
 */
public final class OverloadLog {
    /**
     * A link counter worth a warning: what it reads (from the link's own counters or the node's
     * record of the link, null when the link is attached to no node) and how a line says it.
     */
    private record Kind(ToLongBiFunction<LinkStats, NodeLinkStats> read, String what) {
    }

    private static final List<Kind> LINK_KINDS = List.of(
            new Kind((s, n) -> s.droppedByOs(), "frames dropped by the OS before the link read them (receive buffer full; --rcvbuf)"),
            new Kind((s, n) -> s.droppedInvalid(), "frames dropped as invalid"),
            new Kind((s, n) -> n == null ? 0 : n.framesRejected(),
                    "frames the node could not decode or serve (bad request envelope)"),
            new Kind((s, n) -> s.droppedOversize(), "frames dropped as larger than the link's frame"),
            new Kind((s, n) -> s.droppedCorrupt(), "frames dropped as corrupt (CRC, COBS)"),
            new Kind((s, n) -> s.droppedQueued(), "queued frames dropped unsent (a slow peer's queue)"),
            new Kind((s, n) -> s.peersRefused(), "new senders refused (peer table full, or their host's share used up)"),
            new Kind((s, n) -> s.peersEvicted(), "silent peers evicted from the peer table for new senders"),
            new Kind((s, n) -> n == null ? 0 : n.shareRefused(), "requests refused: a peer over its share of slots or awaits"),
            new Kind((s, n) -> n == null ? 0 : n.deliveriesDropped(), "deliveries dropped: a peer over its outbound rate"),
            new Kind((s, n) -> s.sendRefused(), "sends refused (peer unknown or down, or the link busy)"));

    private final String who;
    private final long periodNanos;
    private final Consumer<String> sink;
    private long[][] linkReported = new long[0][];
    private long[][] linkPrintedAt = new long[0][];
    private long[] poolReported = new long[0];
    private long[] poolPrintedAt = new long[0];

    /**
     * @param who         the node's name, first on every line
     * @param periodNanos at most one line per counter per this period
     * @param sink        where lines go (stderr by default)
     */
    public OverloadLog(String who, long periodNanos, Consumer<String> sink) {
        this.who = who;
        this.periodNanos = periodNanos;
        this.sink = sink;
    }

    /**
     * Compares every counter with what was last reported and prints what moved and may be printed
     * now: each link's own counters, what {@code node} counted about it ({@link Node#linkStats}; no
     * node: none), and every pool's refusals.
     */
    public void check(List<Link> links, Node node, BoundedResource[] pools, long now) {
        if (linkReported.length != links.size()) {
            int known = linkPrintedAt.length;
            linkReported = grow(linkReported, links.size(), LINK_KINDS.size());
            linkPrintedAt = grow(linkPrintedAt, links.size(), LINK_KINDS.size());
            for (int i = known; i < linkPrintedAt.length; i++) {
                java.util.Arrays.fill(linkPrintedAt[i], now - periodNanos);
            }
        }
        for (int i = 0; i < links.size(); i++) {
            Link l = links.get(i);
            LinkStats s = l.stats();
            NodeLinkStats n = node == null ? null : node.linkStats(l);
            for (int k = 0; k < LINK_KINDS.size(); k++) {
                long v = LINK_KINDS.get(k).read().applyAsLong(s, n);
                if (v > linkReported[i][k] && now - linkPrintedAt[i][k] >= periodNanos) {
                    sink.accept(line(l.name(), v - linkReported[i][k], LINK_KINDS.get(k).what(), now - linkPrintedAt[i][k], v));
                    linkReported[i][k] = v;
                    linkPrintedAt[i][k] = now;
                }
            }
        }
        if (poolReported.length != pools.length) {
            poolReported = new long[pools.length];
            poolPrintedAt = new long[pools.length];
            java.util.Arrays.fill(poolPrintedAt, now - periodNanos);
        }
        for (int p = 0; p < pools.length; p++) {
            long v = pools[p].refused();
            if (v > poolReported[p] && now - poolPrintedAt[p] >= periodNanos) {
                sink.accept(line(pools[p].resourceName(), v - poolReported[p],
                        "refused at " + pools[p].ceiling() + " (in use " + pools[p].inUse() + ")",
                        now - poolPrintedAt[p], v));
                poolReported[p] = v;
                poolPrintedAt[p] = now;
            }
        }
    }

    private String line(String where, long delta, String what, long sinceNanos, long total) {
        long s = Math.max(1, Math.round(sinceNanos / 1e9));
        return "warning: " + who + ": " + where + ": " + delta + " " + what + " in the last " + s + " s (" + total
                + " since start)";
    }

    private static long[][] grow(long[][] old, int rows, int cols) {
        long[][] n = new long[rows][cols];
        for (int i = 0; i < Math.min(old.length, rows); i++) {
            n[i] = old[i];
        }
        return n;
    }
}
