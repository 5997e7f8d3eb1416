package io.spectrum.host.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.spectrum.host.view.BridgeView;
import io.spectrum.host.view.Counters;
import io.spectrum.host.view.FabricView;
import io.spectrum.host.view.HostModel;
import io.spectrum.host.view.HostSnapshot;
import io.spectrum.host.view.LinkView;
import io.spectrum.host.view.VertexView;
import io.spectrum.bus.protocol.BusStats;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@code /metrics} shows, as Prometheus metric families (docs/host.md, "Metrics"). Everything is
 * read from what the dashboard reads: the model's latest {@link HostSnapshot} (built on the node
 * thread, immutable, read through a volatile field) and the {@link FabricView}'s bridge and bus
 * figures. A scrape never waits for the node thread and holds no lock while the answer is written.
 *
 * <ul>
 * <li>{@code spectrum_value{board,path,unit}}: every numeric vertex the host holds, in its declared unit;
 *     {@code spectrum_value_stale{board,path,unit}} is 1 while that value is not current (its
 *     publisher's link went away), 0 otherwise; {@code spectrum_value_origin_timestamp_seconds{board,path,unit}}
 *     is the value's origin time (when a host first received it), so its age is {@code time() - } that;</li>
 * <li>the node's tables and pools, each link's counters and peer table, the MQTT bridge's queue and the
 *     host bus's figures in the resource vocabulary: {@code spectrum_resource_capacity},
 *     {@code spectrum_resource_in_use}, {@code spectrum_resource_peak} (gauges) and
 *     {@code spectrum_resource_refused_total}, {@code spectrum_resource_dropped_total},
 *     {@code spectrum_events_total} (counters, by {@code counter}), labelled
 *     {@code scope} (node, link, bridge, bus), {@code source} (the node's, link's or broker's name),
 *     {@code board} (the board a link reaches, else "") and {@code resource}. Which family a counter
 *     goes to is {@link Counters#kind}: the one mapping, over the same maps {@code /api/snapshot} shows;</li>
 * <li>{@code spectrum_up{scope,source,board}}: a link has its peer, the bridge has its broker (1 or 0).</li>
 * </ul>
 * Label values are the paths, units and names as they are; the family names are fixed.
 */
public final class HostMetrics implements MultiCollector {
    private static final String[] VALUE_LABELS = {"board", "path", "unit"};
    private static final String[] LEVEL_LABELS = {"scope", "source", "board", "resource"};
    private static final String[] COUNT_LABELS = {"scope", "source", "board", "resource", "counter"};

    private final HostModel model;
    private final FabricView fabric;

    /** Metrics read from {@code model}'s latest snapshot and {@code fabric}'s bridge and bus views, never the node thread. */
    public HostMetrics(HostModel model, FabricView fabric) {
        this.model = model;
        this.fabric = fabric;
    }

    @Override
    public MetricSnapshots collect() {
        HostSnapshot s = model.snapshot();
        Families f = new Families();
        for (VertexView v : s.vertices()) {
            if (v.numeric()) {
                Labels l = Labels.of(VALUE_LABELS, new String[] {v.board(), v.path(), v.unit()});
                f.value.add(l, v.number());
                f.stale.add(l, v.stale() ? 1 : 0);
                if (v.origin() > 0) {
                    f.origin.add(l, v.origin() / 1000.0);
                }
            }
        }
        f.counters("node", s.node(), "", "node", s.resources());
        for (LinkView l : s.links()) {
            f.up.add(Labels.of(new String[] {"scope", "source", "board"}, new String[] {"link", l.name(), l.board()}),
                    l.up() ? 1 : 0);
            f.counters("link", l.name(), l.board(), "link", l.counters());
        }
        BridgeView b = fabric.bridge();
        if (b != null) {
            f.up.add(Labels.of(new String[] {"scope", "source", "board"}, new String[] {"bridge", b.broker(), ""}),
                    b.connected() ? 1 : 0);
            f.counters("bridge", b.broker(), "", "bridge", Counters.bridge(b));
        }
        BusStats bus = fabric.bus();
        if (bus != null) {
            for (Map.Entry<String, Long> e : Counters.bus(bus).entrySet()) { // every bus figure is a current size
                f.level(Counters.Kind.IN_USE, new String[] {"bus", "bus", "", e.getKey()}, e.getValue());
            }
        }
        return f.build();
    }

    /** A gauge family being filled; a label set already present is left out (the families must stay valid). */
    private static final class Gauge {
        final GaugeSnapshot.Builder b;
        final Set<Labels> seen = new HashSet<>();
        int points;

        Gauge(String name, String help) {
            b = GaugeSnapshot.builder().name(name).help(help);
        }

        void add(Labels l, double v) {
            if (seen.add(l)) {
                b.dataPoint(GaugeDataPointSnapshot.builder().labels(l).value(v).build());
                points++;
            }
        }
    }

    private static final class Counter {
        final CounterSnapshot.Builder b;
        final Set<Labels> seen = new HashSet<>();
        int points;

        Counter(String name, String help) {
            b = CounterSnapshot.builder().name(name).help(help);
        }

        void add(Labels l, double v) {
            if (seen.add(l)) {
                b.dataPoint(CounterDataPointSnapshot.builder().labels(l).value(Math.max(0, v)).build());
                points++;
            }
        }
    }

    private static final class Families {
        final Gauge value = new Gauge("spectrum_value", "A numeric vertex's last-known value, in its declared unit");
        final Gauge stale = new Gauge("spectrum_value_stale", "1 while the vertex's value is not current (its publisher went away), else 0");
        final Gauge origin = new Gauge("spectrum_value_origin_timestamp_seconds",
                "When the vertex's value was first received by a host, in seconds since the Unix epoch (its age: time() minus this)");
        final Gauge up = new Gauge("spectrum_up", "1 while a link has its peer or the MQTT bridge its broker, else 0");
        final Map<Counters.Kind, Gauge> levels = new EnumMap<>(Counters.Kind.class);
        final Map<Counters.Kind, Counter> counts = new EnumMap<>(Counters.Kind.class);

        Families() {
            levels.put(Counters.Kind.CAPACITY, new Gauge("spectrum_resource_capacity", "The ceiling of a bounded resource"));
            levels.put(Counters.Kind.IN_USE, new Gauge("spectrum_resource_in_use", "What a bounded resource holds now"));
            levels.put(Counters.Kind.PEAK, new Gauge("spectrum_resource_peak", "The most a bounded resource has held"));
            counts.put(Counters.Kind.REFUSED, new Counter("spectrum_resource_refused", "Requests refused, by counter"));
            counts.put(Counters.Kind.DROPPED, new Counter("spectrum_resource_dropped", "Frames, deliveries or messages dropped, by counter"));
            counts.put(Counters.Kind.TOTAL, new Counter("spectrum_events", "Traffic and other events, by counter"));
        }

        /** Files every counter of one source under its kind ({@link Counters#kind}). */
        void counters(String scope, String source, String board, String whole, Map<String, Long> counters) {
            for (Map.Entry<String, Long> e : counters.entrySet()) {
                String resource = Counters.resourceOf(e.getKey(), whole);
                Counters.Kind k = Counters.kind(e.getKey());
                Counter c = counts.get(k);
                if (c != null) {
                    c.add(Labels.of(COUNT_LABELS, new String[] {scope, source, board, resource, Counters.leafOf(e.getKey())}),
                            e.getValue());
                } else {
                    level(k, new String[] {scope, source, board, resource}, e.getValue());
                }
            }
        }

        void level(Counters.Kind k, String[] labels, long v) {
            levels.get(k).add(Labels.of(LEVEL_LABELS, labels), v);
        }

        MetricSnapshots build() {
            List<MetricSnapshot> out = new ArrayList<>();
            for (Gauge g : List.of(value, stale, origin, up)) {
                if (g.points > 0) {
                    out.add(g.b.build());
                }
            }
            for (Gauge g : levels.values()) {
                if (g.points > 0) {
                    out.add(g.b.build());
                }
            }
            for (Counter c : counts.values()) {
                if (c.points > 0) {
                    out.add(c.b.build());
                }
            }
            return new MetricSnapshots(out);
        }
    }
}
