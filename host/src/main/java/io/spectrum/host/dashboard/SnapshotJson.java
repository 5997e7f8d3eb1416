package io.spectrum.host.dashboard;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spectrum.client.ValueLine;
import io.spectrum.host.view.BridgeView;
import io.spectrum.host.view.Counters;
import io.spectrum.host.view.FabricView;
import io.spectrum.host.view.HostSnapshot;
import io.spectrum.host.view.LinkView;
import io.spectrum.host.view.RemoteHostView;
import io.spectrum.host.view.RemoteView;
import io.spectrum.host.view.RemoteVertexView;
import io.spectrum.host.view.SlotView;
import io.spectrum.host.view.VertexControl;
import io.spectrum.host.view.VertexHistory;
import io.spectrum.host.view.VertexView;

import java.util.List;
import java.util.Map;

/**
 * The dashboard's JSON shape for a {@link HostSnapshot}. Written by hand (not by reflection) so the
 * view records stay free of JSON annotations and the wire shape is spelled out in one place.
 */
public final class SnapshotJson {
    private SnapshotJson() { }

    /** The snapshot alone: {@code "bridge": null, "remote": null}; {@code ts} by the system clock. */
    public static ObjectNode toJson(ObjectMapper mapper, HostSnapshot s) {
        return toJson(mapper, s, FabricView.NONE, io.spectrum.time.SystemClock.INSTANCE.epochNanos() / 1_000_000L);
    }

    /**
     * The snapshot with what {@code fabric} shows beyond the node: {@code "bridge"} (the MQTT
     * bridge's state and counters, null without one) and {@code "remote"} (other hosts' trees from
     * the broker, read-only; null when not read) and {@code "bus"} (the host bus's connections,
     * topics, subscriptions, services, sealedArtifacts, storeBytes and roots; null without a bus).
     */
    public static ObjectNode toJson(ObjectMapper mapper, HostSnapshot s, FabricView fabric, long nowMillis) {
        ObjectNode root = mapper.createObjectNode();
        root.put("node", s.node());
        root.put("version", s.version());
        root.put("ts", nowMillis); // the host's clock: charts place samples by it
        ArrayNode vs = root.putArray("vertices");
        for (VertexView v : s.vertices()) {
            ObjectNode o = vs.addObject();
            o.put("path", v.path());
            // the value, its unit, seq, stale with its reason, origin time: as every value line (ValueLine)
            ValueLine.summary(ValueLine.fields(o::put, o::put, o::put, o::put, o::put, o::put, o::putNull),
                    v.value(), v.numeric(), v.number(), v.unit(), v.seq(), v.stale(), v.reason(), v.origin());
            o.put("board", v.board());
            VertexControl c = v.control();
            if (c != null) {
                ObjectNode co = o.putObject("control");
                co.put("kind", c.kind());
                co.put("min", c.min());
                co.put("max", c.max());
                co.put("step", c.step());
                co.put("unit", c.unit());
            }
            ArrayNode subs = o.putArray("subscribers");
            for (SlotView sub : v.subscribers()) {
                ObjectNode so = subs.addObject();
                so.put("slot", sub.slot());
                so.put("holder", sub.holder());
                so.put("target", sub.target());
                so.put("suspended", sub.suspended());
                so.put("state", sub.state());
                so.put("delivered", sub.delivered());
            }
        }
        ArrayNode ls = root.putArray("links");
        for (LinkView l : s.links()) {
            ObjectNode o = ls.addObject();
            o.put("name", l.name());
            o.put("up", l.up());
            o.put("state", l.state());
            o.put("board", l.board());
            o.put("listener", l.listener());
            ObjectNode c = o.putObject("counters");
            for (Map.Entry<String, Long> e : l.counters().entrySet()) {
                c.put(e.getKey(), e.getValue());
            }
        }
        ObjectNode rs = root.putObject("resources"); // the node's tables and pools (Counters.resource names)
        for (Map.Entry<String, Long> e : s.resources().entrySet()) {
            rs.put(e.getKey(), e.getValue());
        }
        bridge(root, fabric.bridge());
        remote(root, fabric.remote());
        bus(root, fabric.bus());
        return root;
    }

    private static void remote(ObjectNode root, RemoteView r) {
        if (r == null) {
            root.putNull("remote");
            return;
        }
        ObjectNode ro = root.putObject("remote");
        ro.put("broker", r.broker());
        ro.put("connected", r.connected());
        ro.put("capacity", r.capacity());
        ro.put("refused", r.refused());
        ArrayNode remote = ro.putArray("hosts");
        for (RemoteHostView h : r.hosts()) {
            ObjectNode o = remote.addObject();
            o.put("host", h.name());
            o.put("state", h.state());
            if (h.presenceKnown()) {
                o.put("online", h.online());
            } else {
                o.putNull("online");
            }
            ArrayNode vs2 = o.putArray("vertices");
            for (RemoteVertexView v : h.vertices()) {
                ObjectNode vo = vs2.addObject();
                vo.put("path", v.path());
                vo.put("board", v.board());
                vo.put("value", v.value());
                if (!v.unit().isEmpty()) {
                    vo.put("unit", v.unit());
                }
                if (v.seq() >= 0) {
                    vo.put("seq", v.seq());
                } else {
                    vo.putNull("seq");
                }
                vo.put("stale", v.stale());
                vo.put("publisher", v.publisher());
                vo.put("ts", v.ts());
            }
        }
    }

    /** {@code "bus"}: the host bus's counters, null without a bus. */
    private static void bus(ObjectNode root, io.spectrum.bus.protocol.BusStats b) {
        if (b == null) {
            root.putNull("bus");
            return;
        }
        ObjectNode o = root.putObject("bus");
        for (Map.Entry<String, Long> e : Counters.bus(b).entrySet()) {
            o.put(e.getKey(), e.getValue());
        }
    }

    private static void bridge(ObjectNode root, BridgeView b) {
        if (b == null) {
            root.putNull("bridge");
            return;
        }
        ObjectNode o = root.putObject("bridge");
        o.put("broker", b.broker());
        o.put("connected", b.connected());
        o.put("state", b.state());
        for (Map.Entry<String, Long> e : Counters.bridge(b).entrySet()) {
            o.put(e.getKey(), e.getValue());
        }
    }

    /**
     * The history answer: {@code {"now": ms, "window": ms, "series": {path: [[ts, value, seq], ...]}}},
     * samples oldest first.
     */
    public static ObjectNode history(ObjectMapper mapper, VertexHistory history, long now, long windowMs) {
        ObjectNode root = mapper.createObjectNode();
        root.put("now", now);
        root.put("window", windowMs);
        root.put("store", false);
        ObjectNode series = root.putObject("series");
        for (Map.Entry<String, List<VertexHistory.Sample>> e : history.all(now - windowMs).entrySet()) {
            ArrayNode a = series.putArray(e.getKey());
            for (VertexHistory.Sample p : e.getValue()) {
                a.addArray().add(p.ts()).add(p.value()).add(p.seq());
            }
        }
        return root;
    }

    /**
     * The history answer from the host's history store, in the shape of {@link #history(ObjectMapper,
     * VertexHistory, long, long)}: every stored path with numeric values in the window, its current
     * values as {@code [ts, value, seq]}, or with {@code everyMs} one point per bucket,
     * {@code [ts, mean, n, min, max, last]}; at most {@code cap} points per path (the latest).
     */
    public static ObjectNode history(ObjectMapper mapper, io.spectrum.host.history.HistoryReader reader, long now,
                                     long windowMs, long everyMs, int cap) throws java.sql.SQLException {
        ObjectNode root = mapper.createObjectNode();
        root.put("now", now);
        root.put("window", windowMs);
        root.put("store", true);
        if (everyMs > 0) {
            root.put("every", everyMs);
        }
        ObjectNode series = root.putObject("series");
        for (String path : reader.paths(List.of())) {
            ArrayNode a = mapper.createArrayNode();
            if (everyMs > 0) {
                List<io.spectrum.host.history.HistoryBucket> bs = reader.buckets(path, now - windowMs, now + 1, everyMs);
                for (io.spectrum.host.history.HistoryBucket b : bs.subList(Math.max(0, bs.size() - cap), bs.size())) {
                    a.addArray().add(b.t()).add(b.mean()).add(b.n()).add(b.min()).add(b.max()).add(b.last());
                }
            } else {
                List<io.spectrum.host.history.HistoryRow> rs = reader.rows(path, now - windowMs, now + 1, Integer.MAX_VALUE)
                        .stream().filter(r -> r.value().numeric() && !r.stale()).toList();
                for (io.spectrum.host.history.HistoryRow r : rs.subList(Math.max(0, rs.size() - cap), rs.size())) {
                    a.addArray().add(r.t()).add(r.value().number()).add(r.seq());
                }
            }
            if (!a.isEmpty()) {
                series.set(path, a);
            }
        }
        return root;
    }
}
