package io.spectrum.host.runtime;

import io.spectrum.host.history.HistoryRow;
import io.spectrum.host.history.HistoryStore;
import io.spectrum.node.ServingNode;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.node.api.VertexValue;
import io.spectrum.time.Clock;
import io.spectrum.wide.WideNode;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The host's glue to its history store (docs/host.md, "History" and "Backfill"): the node's value
 * tap that queues each kept value or stale mark for the store, the boards' backfill whose rows go
 * to the store too, and the store's periodic summarising.
 *
 * <p>Threading: everything but {@link #store()} and {@link #close()} runs on the node thread (the
 * tap is called by the node, {@link #attach} and {@link #maintain} from node-thread tasks and the
 * loop's step). The store reference is volatile so other threads read it; the store renders and
 * writes on its own writer thread, so the node thread never renders for the history nor waits for
 * the disk. Time comes from the node's clock only.
 */
final class HistoryTap {
    /** How often (host clock) the history store is asked to summarise and thin itself. */
    private static final long MAINTAIN_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final Clock clock;
    /** The host's known paths, parsed (node thread; shared with the runtime). */
    private final Map<String, NodePath> paths;
    private final Function<String, VertexSchema> schema;
    private final BiFunction<String, NodePath, VertexSchema> schemaParsed;
    /** Fills the history's holes from the boards' backfill rings (docs/host.md "Backfill"). */
    private final HistoryBackfill backfill;
    /** The history store every kept value goes to (null: none), its path filter and each path's answer. */
    private volatile HistoryStore store;
    private Predicate<String> keeps = p -> false;
    private final Map<String, Boolean> kept = new HashMap<>();
    private long lastMaintain;

    /**
     * The tap of a host over {@code node}: {@code mountOf} finds a path's mount for the backfill,
     * {@code paths} are the runtime's parsed paths (node thread), {@code schema} and
     * {@code schemaParsed} give a path's declaration (node thread), {@code warn} takes warnings.
     */
    HistoryTap(ServingNode node, Clock clock, Function<String, Mount> mountOf, Map<String, NodePath> paths,
               Function<String, VertexSchema> schema, BiFunction<String, NodePath, VertexSchema> schemaParsed,
               Consumer<String> warn) {
        this.clock = clock;
        this.paths = paths;
        this.schema = schema;
        this.schemaParsed = schemaParsed;
        this.backfill = new HistoryBackfill(node, mountOf, new BackfillRows(), 64 * 1024, warn);
    }

    /** The boards' backfill. Node thread. */
    HistoryBackfill backfill() {
        return backfill;
    }

    /** The store values go to, or null. Any thread. */
    HistoryStore store() {
        return store;
    }

    /** Makes {@code w}'s values go to the opened store {@code h}. Node thread. */
    void attach(WideNode w, HistoryStore h) {
        keeps = h.settings().filter();
        kept.clear();
        lastMaintain = clock.nanoTime(); // opening the store summarised already
        store = h;
        w.setValueTap(this::tapped);
    }

    /** Lets the store write what waits (each step), and asks it to summarise and thin itself once per period, at {@code now} (host clock). Node thread. */
    void maintain(long now) {
        HistoryStore h = store;
        if (h != null) {
            h.tick(); // the writer writes what waits, in one transaction, once a step at most
        }
        if (h != null && now - lastMaintain >= MAINTAIN_NANOS) {
            lastMaintain = now;
            h.maintain(clock.epochNanos() / 1_000_000L); // done on the store's writer thread
        }
    }

    /** Closes the store, if any: what the node queued is written. Call after the node thread stopped. */
    void close() {
        HistoryStore h = store;
        if (h != null) {
            h.close(); // what the node queued is written
        }
    }

    /**
     * A value or stale mark the node assigned: queued for the history store when kept. Node thread: it
     * copies the value's TLV with its path, declaration, time, sequence and stale mark into one of the
     * store's pooled records and renders nothing (the store's writer thread does); a full queue drops
     * the value, counted and warned by the store, and never waits.
     */
    private void tapped(VertexValue v, long seq, long sourceSeq, long originMillis, boolean stale, byte[] reason) {
        HistoryStore h = store;
        if (h == null || v.deleted()) {
            return;
        }
        String path = v.path();
        Boolean keep = kept.get(path);
        if (keep == null) {
            keep = keeps.test(path);
            if (kept.size() >= 8192) {
                kept.clear(); // bounded: decided again when seen again
            }
            kept.put(path, keep);
        }
        if (!keep) {
            return;
        }
        if (!stale && sourceSeq > 0 && backfill.last(path) == sourceSeq) {
            return; // the board's value delivered again (the latch after a reconnection): recorded already
        }
        if (!h.fits(v.length())) {
            return; // a blob or a long text: not kept (the store's rule)
        }
        // a value's time is its origin (when the first host received it), else now on the host's clock
        long at = originMillis > 0 ? originMillis : clock.epochNanos() / 1_000_000L;
        // its sequence is the board's (the upstream's stamp) when it came from one, else this host's
        NodePath known = paths.get(path); // parsed already for most: no parse per value
        h.offer(path, known != null ? schemaParsed.apply(path, known) : schema.apply(path), v, at,
                sourceSeq > 0 ? sourceSeq : seq, stale, reason);
        if (sourceSeq > 0) {
            backfill.recorded(path, sourceSeq); // a jump in the board's sequence: the values in between are asked
        }
    }

    /** The rows a board's backfill answer gives: to the history store, never to the node. Node thread. */
    private final class BackfillRows implements HistoryBackfill.Rows {
        @Override
        public void value(String path, long boardSeq, long t, byte[] tlv, int off, int len) {
            HistoryStore h = store;
            if (h != null) {
                h.offer(path, schema.apply(path), tlv, off, len, t, boardSeq); // rendered on the store's writer thread
            }
        }

        @Override
        public void gap(String path, long from, long to, long t) {
            HistoryStore h = store;
            if (h != null) {
                h.offer(HistoryRow.gap(path, t, from, to));
            }
        }
    }
}
