package io.spectrum.host.dashboard;

import io.spectrum.host.history.HistorySettings;
import io.spectrum.host.runtime.HostRuntime;
import io.spectrum.testing.Tools;
import io.spectrum.wide.WideNode;
import io.spectrum.wire.TlvWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static io.spectrum.host.dashboard.DashboardBrowserTest.awaitEquals;

/**
 * The page's charts read the host's history store (docs/host.md, "History"): after the host restarts
 * on the same state directory, a chart still draws the values from before, and the long windows
 * (1 h, 24 h, 7 d, with the time of day on the axis) are offered. Headless chromium, skipped where
 * it is not installed.
 */
class DashboardHistoryBrowserTest {
    @TempDir
    Path dir;

    private static byte[] value(long v) {
        byte[] b = new byte[16];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.value(v, 4);
        return Arrays.copyOf(b, w.length());
    }

    private HostRuntime host(HistorySettings settings) {
        HostRuntime h = new HostRuntime("host", new WideNode(HostRuntime.HOST_CONFIG));
        h.record(settings);
        h.start();
        return h;
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aChartDrawsTheValuesFromBeforeTheHostRestarted() throws Exception {
        Path chromium = Tools.require("chromium", "chromium", "the dashboard page is driven in headless chromium");
        HistorySettings settings = HistorySettings.of(dir.resolve(HistorySettings.FILE_NAME));
        try (HostRuntime first = host(settings)) {
            for (int i = 1; i <= 3; i++) {
                first.write("/here/level", value(i));
            }
        }
        try (HostRuntime second = host(settings);
             DashboardServer dash = new DashboardServer(second, new InetSocketAddress("127.0.0.1", 0), 0);
             HeadlessChromium chrome = new HeadlessChromium(chromium, dash.url())) {
            second.write("/here/level", value(4));
            second.historyStore().flush();
            String count = "document.querySelector('.vertex[data-path=\"/here/level\"] .count')?.textContent";
            awaitEquals("4 values", () -> chrome.evalString(count), chrome);
            String longShown = "getComputedStyle(document.querySelector('button[data-window=\"604800\"]')).display";
            awaitEquals("inline-block", () -> chrome.evalString(longShown), chrome);
            chrome.eval("document.querySelector('button[data-window=\"604800\"]').click()");
            String firstTick = "[...document.querySelectorAll('.vertex[data-path=\"/here/level\"] svg.chart text.tick')]"
                    + ".map(t => t.textContent).filter(t => /\\d:\\d\\d/.test(t)).length > 0 ? 'time of day' : 'relative'";
            awaitEquals("time of day", () -> chrome.evalString(firstTick), chrome);
        }
    }
}
