package io.spectrum.host.metrics;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.spectrum.host.view.BridgeView;
import io.spectrum.host.view.FabricView;
import io.spectrum.host.view.HostModel;
import io.spectrum.host.view.HostSnapshot;
import io.spectrum.host.view.InMemoryHostModel;
import io.spectrum.host.view.LinkView;
import io.spectrum.host.view.RemoteView;
import io.spectrum.bus.protocol.BusStats;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link HostMetrics} over a model and a fabric set by hand: values with their labels and stale mark,
 * text values left out, and the bridge's and bus's counters in the resource vocabulary through the
 * same naming rule as a link's ({@code Counters.kind}).
 */
class HostMetricsTest {
    private static String render(HostModel model, FabricView fabric) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, new HostMetrics(model, fabric).collect());
        return out.toString(StandardCharsets.UTF_8);
    }

    private static void has(String text, String line) {
        assertTrue(text.lines().anyMatch(line::equals), "missing: " + line + "\n" + text);
    }

    @Test
    void valuesStaleMarksBridgeAndBusFigures() throws Exception {
        InMemoryHostModel model = new InMemoryHostModel("plant1");
        model.publish("/kitchen/temp", "21.5", "°C");
        model.publish("/kitchen/name", "oven");
        model.publish("/hostlocal", "3");
        model.publish("/cellar/temp", "9.25", "°C");
        model.markStale("/cellar/temp", true);
        FabricView fabric = new FabricView() {
            @Override
            public BridgeView bridge() {
                return new BridgeView("mqtt://broker:1883", true, 3, 1000, 4, 5, 60, 1, 70);
            }

            @Override
            public RemoteView remote() {
                return null;
            }

            @Override
            public BusStats bus() {
                return new BusStats(11, 2, 3, 4, 512, 0, 6, 7, 2, 1, 0);
            }

            @Override
            public HostModel.Registration onChange(Runnable listener) {
                return () -> { };
            }
        };
        String text = render(model, fabric);
        has(text, "spectrum_value{board=\"kitchen\",path=\"/kitchen/temp\",unit=\"°C\"} 21.5");
        has(text, "spectrum_value_stale{board=\"kitchen\",path=\"/kitchen/temp\",unit=\"°C\"} 0.0");
        has(text, "spectrum_value{board=\"\",path=\"/hostlocal\",unit=\"\"} 3.0");
        has(text, "spectrum_value{board=\"cellar\",path=\"/cellar/temp\",unit=\"°C\"} 9.25");
        has(text, "spectrum_value_stale{board=\"cellar\",path=\"/cellar/temp\",unit=\"°C\"} 1.0");
        assertFalse(text.contains("/kitchen/name"), "a text value is no gauge: " + text);

        String bridge = "board=\"\",resource=\"bridge\",scope=\"bridge\",source=\"mqtt://broker:1883\"";
        has(text, "spectrum_up{board=\"\",scope=\"bridge\",source=\"mqtt://broker:1883\"} 1.0");
        has(text, "spectrum_resource_in_use{" + bridge + "} 3.0");
        has(text, "spectrum_resource_capacity{" + bridge + "} 1000.0");
        has(text, "spectrum_resource_dropped_total{board=\"\",counter=\"dropped\",resource=\"bridge\",scope=\"bridge\",source=\"mqtt://broker:1883\"} 4.0");
        has(text, "spectrum_events_total{board=\"\",counter=\"published\",resource=\"bridge\",scope=\"bridge\",source=\"mqtt://broker:1883\"} 60.0");
        has(text, "spectrum_resource_in_use{board=\"\",resource=\"connections\",scope=\"bus\",source=\"bus\"} 2.0");
        has(text, "spectrum_resource_in_use{board=\"\",resource=\"storeBytes\",scope=\"bus\",source=\"bus\"} 512.0");
    }

    @Test
    void aLinksCountersLandByTheirNamesAndTwoLinksOfOneNameDoNotBreakTheScrape() throws Exception {
        InMemoryHostModel model = new InMemoryHostModel("h");
        Map<String, Long> c = new LinkedHashMap<>();
        c.put("frames_in", 10L);
        c.put("send_refused", 2L);
        c.put("frames_rejected", 1L);
        c.put("deliveries_dropped", 5L);
        c.put("peers.capacity", 16L);
        c.put("peers.in_use", 3L);
        c.put("peers.peak", 4L);
        c.put("peers.refused", 6L);
        model.putLink(new LinkView("udp 127.0.0.1:7701", true, c, "", true));
        String text = render(model, FabricView.NONE);
        String link = "board=\"\",%sresource=\"%s\",scope=\"link\",source=\"udp 127.0.0.1:7701\"";
        has(text, "spectrum_events_total{" + link.formatted("counter=\"frames_in\",", "link") + "} 10.0");
        has(text, "spectrum_resource_refused_total{" + link.formatted("counter=\"send_refused\",", "link") + "} 2.0");
        has(text, "spectrum_resource_refused_total{" + link.formatted("counter=\"frames_rejected\",", "link") + "} 1.0");
        has(text, "spectrum_resource_dropped_total{" + link.formatted("counter=\"deliveries_dropped\",", "link") + "} 5.0");
        has(text, "spectrum_resource_capacity{" + link.formatted("", "peers") + "} 16.0");
        has(text, "spectrum_resource_in_use{" + link.formatted("", "peers") + "} 3.0");
        has(text, "spectrum_resource_peak{" + link.formatted("", "peers") + "} 4.0");
        has(text, "spectrum_resource_refused_total{" + link.formatted("counter=\"refused\",", "peers") + "} 6.0");

        // a second link of the same name and board (two mounts dialling one address): its label set is
        // taken, so it is left out rather than making every scrape fail
        LinkView same = new LinkView("udp->127.0.0.1:7700", true, Map.of("frames_in", 1L), "b", false);
        HostModel twice = new SnapshotModel(() -> new HostSnapshot("h", 1, List.of(), List.of(same, same)),
                io.spectrum.time.SystemClock.INSTANCE);
        has(render(twice, FabricView.NONE),
                "spectrum_events_total{board=\"b\",counter=\"frames_in\",resource=\"link\",scope=\"link\",source=\"udp->127.0.0.1:7700\"} 1.0");
    }
}
