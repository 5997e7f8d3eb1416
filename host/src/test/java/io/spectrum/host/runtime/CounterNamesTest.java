package io.spectrum.host.runtime;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.spectrum.host.metrics.HostMetrics;
import io.spectrum.host.view.Counters;
import io.spectrum.host.view.FabricView;
import io.spectrum.host.view.InMemoryHostModel;
import io.spectrum.host.view.LinkView;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.stats.BoundedResource;
import io.spectrum.time.ManualClock;
import io.spectrum.wide.WideNode;
import io.spectrum.wire.Names;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One counter, one name: a link's counters and a node's resources carry the same names in the
 * node's {@code /$node/stats} tree, in the dashboard's counter maps ({@code /api/snapshot}) and in
 * {@code /metrics} (the {@code counter} label, or the {@code spectrum_resource_<name>} family of a
 * level).
 */
class CounterNamesTest {
    @Test
    void aLinksCountersAndTheNodesResourcesAreNamedAlikeInStatsDashboardAndMetrics() throws Exception {
        ManualClock clock = new ManualClock(0);
        WideNode node = new WideNode(HostRuntime.HOST_CONFIG.toBuilder().clock(clock).build());
        UdpLink link = UdpLink.listen(4, new InetSocketAddress("127.0.0.1", 0), new UdpLinkConfig().peerCapacity(6),
                clock);
        try {
            assertEquals(WireError.OK, node.attach(link));
            assertTrue(node.refreshStats() >= 0);
            byte[] buf = new byte[64 * 1024];
            int n = node.read(NodePath.of(Names.STATS_PATH), buf, 0, buf.length);
            assertTrue(n > 0, "read /$node/stats: " + n);
            Map<String, List<String>> stats = tree(buf, n);

            // the link: /$node/stats's link.<id> names = the dashboard's names (its peer table unprefixed there)
            Map<String, Long> dashboard = HostRuntime.counters(link, node.linkStats(link));
            List<String> statsNames = new ArrayList<>(stats.get("link.4"));
            statsNames.remove("name");
            List<String> dashboardNames = new ArrayList<>();
            for (String k : dashboard.keySet()) {
                dashboardNames.add(k.startsWith("peers.") ? k.substring("peers.".length()) : k);
            }
            assertEquals(new TreeSet<>(statsNames), new TreeSet<>(dashboardNames));

            // the node's resources: each one's names under /$node/stats = the dashboard's suffixes
            for (BoundedResource r : node.resources()) {
                Map<String, Long> m = new LinkedHashMap<>();
                Counters.resource(m, r.resourceName(), r);
                List<String> leaves = m.keySet().stream().map(Counters::leafOf).toList();
                assertEquals(leaves, stats.get(r.resourceName()), r.resourceName());
            }

            // /metrics: every dashboard name is a counter label, or the family of a level
            InMemoryHostModel model = new InMemoryHostModel("h");
            model.putLink(new LinkView(link.name(), false, dashboard));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            PrometheusTextFormatWriter.create().write(out, new HostMetrics(model, FabricView.NONE).collect());
            String text = out.toString(StandardCharsets.UTF_8);
            for (String k : dashboard.keySet()) {
                String leaf = Counters.leafOf(k);
                boolean asLabel = text.contains("counter=\"" + leaf + "\"");
                boolean asFamily = text.lines().anyMatch(l -> l.startsWith("spectrum_resource_" + leaf + "{")
                        && l.contains("resource=\"" + Counters.resourceOf(k, "link") + "\""));
                assertTrue(asLabel || asFamily, k + " under its own name in /metrics:\n" + text);
            }
        } finally {
            node.close();
            link.close();
        }
    }

    /**
     * The names under each entry of a /$node/stats tree: {@code SETTINGS{NAME k, SETTINGS{NAME n, v, ...}, ...}},
     * each TLV a 4-byte header (type, flags, length u16 LE) and its body.
     */
    private static Map<String, List<String>> tree(byte[] b, int len) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        int at = 4; // inside the outer SETTINGS
        while (at < len) {
            String key = text(b, at);
            at = next(b, at);
            if (b[at] == 0x0B) { // a nested SETTINGS: its keys
                List<String> names = new ArrayList<>();
                int end = next(b, at);
                int in = at + 4;
                while (in < end) {
                    names.add(text(b, in));
                    in = next(b, next(b, in));
                }
                out.put(key, names);
            }
            at = next(b, at);
        }
        return out;
    }

    private static int length(byte[] b, int at) {
        return (b[at + 2] & 0xFF) | (b[at + 3] & 0xFF) << 8;
    }

    private static int next(byte[] b, int at) {
        return at + 4 + length(b, at);
    }

    private static String text(byte[] b, int at) {
        return new String(b, at + 4, length(b, at), StandardCharsets.UTF_8);
    }
}
