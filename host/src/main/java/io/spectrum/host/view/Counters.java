package io.spectrum.host.view;

import io.spectrum.bus.protocol.BusStats;
import io.spectrum.stats.BoundedResource;
import io.spectrum.stats.CounterNames;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The host's counters as flat {@code name -> value} maps, in one naming rule, and what each name means
 * in the libtracer resource vocabulary ({@link #kind}). The links panel and {@code /api/snapshot}
 * show the maps as they are; {@code /metrics} files each entry under its {@link Kind} (docs/host.md,
 * "Metrics"). A new counter needs no second list: a name that follows the rule lands in the right
 * metric family. The names are {@link CounterNames}', the ones {@code /$node/stats} uses.
 *
 * <p>The rule: a {@link BoundedResource} is five entries {@code <resource>.capacity},
 * {@code <resource>.in_use}, {@code <resource>.peak}, {@code <resource>.refused} and
 * {@code <resource>.dropped} ({@link #resource}); any other name is a count of events, a refusal
 * when it says refused or rejected, a drop when it says dropped ({@code send_refused},
 * {@code dropped_corrupt}, {@code deliveries_dropped}), else plain traffic ({@code frames_in},
 * {@code reconnects}). The bus's figures are all current sizes ({@link #bus}).
 */
public final class Counters {
    private Counters() {
    }

    /** What a counter is in the resource vocabulary. */
    public enum Kind {
        /** The ceiling that applies (a level). */
        CAPACITY,
        /** What is taken now (a level). */
        IN_USE,
        /** The high-water mark of {@link #IN_USE} (a level). */
        PEAK,
        /** Requests refused, by reason (a count). */
        REFUSED,
        /** Frames, deliveries or messages dropped, by reason (a count). */
        DROPPED,
        /** Any other count (traffic, reconnects, evictions). */
        TOTAL
    }

    /**
     * Adds {@code r}'s five figures as {@code prefix.capacity}, {@code .in_use}, {@code .peak},
     * {@code .refused} and {@code .dropped}.
     */
    public static void resource(Map<String, Long> into, String prefix, BoundedResource r) {
        into.put(prefix + "." + CounterNames.CAPACITY, r.capacity());
        into.put(prefix + "." + CounterNames.IN_USE, r.inUse());
        into.put(prefix + "." + CounterNames.PEAK, r.peak());
        into.put(prefix + "." + CounterNames.REFUSED, r.refused());
        into.put(prefix + "." + CounterNames.DROPPED, r.dropped());
    }

    /** Every resource of a node ({@code Node.resources()}), each under its own name ({@code wide.vertices.capacity}, …). */
    public static Map<String, Long> resources(BoundedResource[] resources) {
        Map<String, Long> c = new LinkedHashMap<>();
        for (BoundedResource r : resources) {
            resource(c, r.resourceName(), r);
        }
        return c;
    }

    /**
     * The MQTT bridge's counters, as {@code /api/snapshot}'s {@code bridge} shows them: its queue's
     * {@code in_use} (messages queued), {@code capacity} and {@code dropped} (oldest first), then events.
     */
    public static Map<String, Long> bridge(BridgeView b) {
        Map<String, Long> c = new LinkedHashMap<>();
        c.put(CounterNames.IN_USE, (long) b.queued());
        c.put(CounterNames.CAPACITY, (long) b.capacity());
        c.put(CounterNames.DROPPED, b.dropped());
        c.put("coalesced", b.coalesced());
        c.put("published", b.published());
        c.put("reconnects", b.reconnects());
        c.put("values", b.values());
        return c;
    }

    /** The host bus's figures, as {@code /api/snapshot}'s {@code bus} shows them: each a current size. */
    public static Map<String, Long> bus(BusStats b) {
        Map<String, Long> c = new LinkedHashMap<>();
        c.put("connections", (long) b.connections());
        c.put("topics", (long) b.topics());
        c.put("subscriptions", (long) b.subscriptions());
        c.put("services", (long) b.services());
        c.put("sealedArtifacts", b.sealedArtifacts());
        c.put("storeBytes", b.storeBytes());
        c.put("roots", b.roots());
        return c;
    }

    /** The resource a counter belongs to: what precedes its last dot, or {@code whole} for a plain name. */
    public static String resourceOf(String name, String whole) {
        int dot = name.lastIndexOf('.');
        return dot < 0 ? whole : name.substring(0, dot);
    }

    /** The counter's own word: what follows its last dot. */
    public static String leafOf(String name) {
        return name.substring(name.lastIndexOf('.') + 1);
    }

    /** What the counter {@code name} is, by the naming rule above. */
    public static Kind kind(String name) {
        String leaf = leafOf(name);
        switch (leaf) {
            case CounterNames.CAPACITY:
                return Kind.CAPACITY;
            case CounterNames.IN_USE:
                return Kind.IN_USE;
            case CounterNames.PEAK:
                return Kind.PEAK;
            default:
                break;
        }
        if (leaf.contains(CounterNames.REFUSED) || leaf.contains("rejected")) {
            return Kind.REFUSED;
        }
        if (leaf.contains(CounterNames.DROPPED)) {
            return Kind.DROPPED;
        }
        return Kind.TOTAL;
    }
}
