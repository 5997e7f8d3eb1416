package io.spectrum.host.dashboard;

import io.spectrum.host.history.HistorySettings;
import io.spectrum.host.runtime.HostRuntime;
import io.spectrum.testing.Tools;
import io.spectrum.time.ManualClock;
import io.spectrum.wide.WideNode;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

import static io.spectrum.host.dashboard.DashboardBrowserTest.awaitEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The page's charts read the host's history store (docs/host.md, "Dashboard"): after the host restarts
 * on the same state directory, the last hour's chart draws the values from before, on a wall-clock
 * time axis; a vertex of the same unit is laid over it; the range zooms, pans and reaches 30 days
 * (downsampled). Headless chromium, skipped where it is not installed.
 */
class DashboardHistoryBrowserTest {
    private static final long MINUTE = 60_000L;
    private static final String CHART = "document.querySelector('svg.chart[data-path=\"/here/level\"]')";

    @TempDir
    Path dir;

    private static byte[] value(long v) {
        byte[] b = new byte[16];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.value(v, 4);
        return Arrays.copyOf(b, w.length());
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void theLastHourDrawsTheValuesFromBeforeTheHostRestarted() throws Exception {
        Path chromium = Tools.require("chromium", "chromium", "the dashboard page is driven in headless chromium");
        HistorySettings settings = HistorySettings.of(dir.resolve(HistorySettings.FILE_NAME));
        // the first host's clock starts 50 minutes ago: a value every 10 minutes, up to 10 minutes ago
        long startMs = System.currentTimeMillis() - 50 * MINUTE;
        ManualClock clock = new ManualClock(startMs * 1_000_000L - new ManualClock(0).epochNanos());
        try (HostRuntime first = new HostRuntime("host", new WideNode(HostRuntime.HOST_CONFIG.toBuilder().clock(clock).build()))) {
            first.record(settings);
            IntSupplier cycle = first.startOnCallerThread();
            for (int i = 1; i <= 5; i++) {
                assertEquals(WireError.OK, first.write("/here/level", value(10 * i)));
                assertEquals(WireError.OK, first.write("/here/other", value(60 - 5 * i)));
                cycle.getAsInt();
                if (i < 5) {
                    clock.advanceMillis(10 * MINUTE);
                }
                cycle.getAsInt();
            }
            first.historyStore().flush();
        }
        HostRuntime second = new HostRuntime("host", new WideNode(HostRuntime.HOST_CONFIG));
        second.record(settings);
        second.start();
        try (second;
             DashboardServer dash = new DashboardServer(second, new InetSocketAddress("127.0.0.1", 0), 0)) {
            second.write("/here/level", value(55)); // the vertices are the new host's again
            second.write("/here/other", value(40));
            second.historyStore().flush();
            try (HeadlessChromium chrome = new HeadlessChromium(chromium, dash.url())) {
                // the page's script has learnt that the host keeps a store (before it runs, a button shows unstyled)
                String longShown = "(() => { const b = document.querySelector('button[data-range=\"3600\"]'); "
                        + "return b && document.body.classList.contains('history-store') && getComputedStyle(b).display; })()";
                awaitEquals("inline-block", () -> chrome.evalString(longShown), chrome);
                chrome.eval("document.querySelector('button[data-range=\"3600\"]').click()");
                // the last hour: the five values from before the restart (50 to 10 minutes ago) and the one after
                awaitEquals("3600000 6", () -> chrome.evalString("(() => { const c = " + CHART + "; return c && "
                        + "(c.dataset.to - c.dataset.from) + ' ' + c.dataset.points; })()"), chrome);
                awaitEquals("6 values", () -> chrome.evalString(
                        "document.querySelector('.vertex[data-path=\"/here/level\"] .count')?.textContent"), chrome);
                // the first point is 50 minutes back: a sixth of the way along the axis (x 52 to 294 of 300)
                double firstX = Double.parseDouble(chrome.evalString("String(Math.min(...document.querySelector("
                        + "'svg.chart[data-path=\"/here/level\"] polyline[data-path=\"/here/level\"]').getAttribute('points')"
                        + ".split(' ').map(p => Number(p.split(',')[0]))))"));
                assertTrue(firstX > 80 && firstX < 100, "the point from 50 minutes ago is at x " + firstX);
                // the time axis is the wall clock: hh:mm ticks, with the date under the first and under midnight
                String ticks = chrome.evalString("[...document.querySelectorAll('svg.chart[data-path=\"/here/level\"] text.tick.time')]"
                        + ".map(t => [...t.querySelectorAll('tspan')].map(s => s.textContent).join('|')).join(';')");
                assertTrue(ticks.matches("\\d\\d:\\d\\d(\\|[^;|]+)?(;\\d\\d:\\d\\d(\\|[^;|]+)?)*"),
                        "wall-clock ticks: " + ticks);

                // another vertex of the same unit on the same chart, with a legend
                chrome.eval("(() => { const s = document.querySelector('.vertex[data-path=\"/here/level\"] select.overlay-add');"
                        + " s.value = '/here/other'; s.dispatchEvent(new Event('change', {bubbles: true})); })()");
                awaitEquals("2 6", () -> chrome.evalString("(() => { const c = " + CHART + "; const o = c && "
                        + "c.querySelector('polyline[data-path=\"/here/other\"]'); return o && c.dataset.series + ' ' + o.dataset.points; })()"),
                        chrome);
                assertEquals("/here/level /here/other", chrome.evalString(
                        "[...document.querySelectorAll('.vertex[data-path=\"/here/level\"] .legend .entry')].map(e => e.dataset.path).join(' ')"));
                Path png = Path.of("target", "dashboard-history.png").toAbsolutePath();
                chrome.screenshot(png, 1400, 900);
                System.out.println("dashboard history screenshot: " + png);

                // the wheel zooms in around the pointer (the range stops following now); "now" follows it again
                chrome.eval("(() => { const c = " + CHART + "; const r = c.getBoundingClientRect();"
                        + " c.dispatchEvent(new WheelEvent('wheel', {deltaY: -100, bubbles: true, cancelable: true,"
                        + " clientX: r.left + r.width * (52 + 0.5 * 242) / 300, clientY: r.top + 20})); })()");
                awaitEquals("2880000 false", () -> chrome.evalString("(() => { const c = " + CHART + "; const l = "
                        + "document.getElementById('range-label'); return (c.dataset.to - c.dataset.from) + ' ' + l.dataset.following; })()"),
                        chrome);
                long toBefore = Long.parseLong(chrome.evalString(CHART + ".dataset.to"));
                chrome.eval("document.querySelector('button[data-pan=\"-1\"]').click()");
                long toAfter = Long.parseLong(chrome.evalString(CHART + ".dataset.to"));
                assertEquals(toBefore - 1_440_000, toAfter, "panned back half the range");
                chrome.eval("document.querySelector('button[data-follow]').click()");
                awaitEquals("true", () -> chrome.evalString("document.getElementById('range-label').dataset.following"), chrome);

                // 30 days: one point per 2 h, read from the one-minute summaries; every value still counted
                chrome.eval("document.querySelector('button[data-range=\"2592000\"]').click()");
                awaitEquals("7200000 6 values", () -> chrome.evalString("(() => { const c = " + CHART + "; return c && c.dataset.every + ' ' + "
                        + "document.querySelector('.vertex[data-path=\"/here/level\"] .count')?.textContent; })()"), chrome);
                String dated = chrome.evalString("[...document.querySelectorAll('svg.chart[data-path=\"/here/level\"] text.tick.time')]"
                        + ".map(t => t.textContent).join(' ')");
                assertTrue(dated.matches(".*[A-Za-z]{3}.*"), "a 30-day axis names the days: " + dated);
            }
        }
    }
}
