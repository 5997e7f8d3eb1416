package io.spectrum.host.dashboard;

import io.spectrum.host.view.InMemoryHostModel;
import io.spectrum.testing.Tools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Drives the real page in headless chromium (skipped, naming why, where chromium is not installed): it loads, values change live, suspend takes effect. */
class DashboardBrowserTest {
    private static final String TEMP = "/board1/temp";

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void liveValuesAndSuspendThroughThePage() throws Exception {
        Path chromium = Tools.require("chromium", "chromium", "the dashboard page is driven in headless chromium");
        InMemoryHostModel model = new InMemoryHostModel("test-host");
        model.publish(TEMP, "20.0");
        model.publish("/board1/name", "kitchen");
        int slot = model.subscribe(TEMP, "udp:127.0.0.1:47001", "peer#1");

        try (DashboardServer dash = new DashboardServer(model, new InetSocketAddress("127.0.0.1", 0), 0);
             HeadlessChromium chrome = new HeadlessChromium(chromium, dash.url())) {
            String value = "document.querySelector('.vertex[data-path=\"" + TEMP + "\"] .value')?.textContent";
            String state = "document.querySelector('tr.sub[data-path=\"" + TEMP + "\"][data-slot=\"" + slot + "\"] .state')?.textContent";

            // the page loads and shows the value and the delivering subscriber
            awaitEquals("20.0", () -> chrome.evalString(value), chrome);
            assertEquals("delivering", chrome.evalString(state));
            String staleShown = "getComputedStyle(document.querySelector('.vertex[data-path=\"" + TEMP + "\"] .badge.stale')).display === 'none' ? 'hidden' : 'shown'";
            assertEquals("hidden", chrome.evalString(staleShown), "not stale: no marker");
            assertEquals("kitchen", chrome.evalString(
                    "document.querySelector('.vertex[data-path=\"/board1/name\"] .value').textContent"));

            // a new value arrives on screen without a reload (the marker survives)
            chrome.eval("window.__noReload = 'same page'");
            model.publish(TEMP, "21.5");
            awaitEquals("21.5", () -> chrome.evalString(value), chrome);
            assertEquals("same page", chrome.evalString("window.__noReload"));
            assertTrue(model.received(TEMP, slot).stream().anyMatch(d -> d.value().equals("21.5")),
                    "the subscriber receives while delivering");
            // the numeric value has a chart
            assertEquals("true", chrome.evalString(
                    "String(!!document.querySelector('.vertex[data-path=\"" + TEMP + "\"] svg.chart polyline'))"));

            // clicking Suspend goes through the model, and the subscriber stops receiving
            chrome.eval("document.querySelector('button[data-action=\"suspend\"][data-path=\"" + TEMP
                    + "\"][data-slot=\"" + slot + "\"]').click()");
            awaitEquals("suspended", () -> chrome.evalString(state), chrome);
            assertEquals(List.of("suspend " + TEMP + " " + slot), model.actions());
            int before = model.received(TEMP, slot).size();
            model.publish(TEMP, "22.0");
            model.publish(TEMP, "23.0");
            awaitEquals("23.0", () -> chrome.evalString(value), chrome);
            assertEquals(before, model.received(TEMP, slot).size(), "a suspended subscriber receives nothing");
            assertFalse(model.received(TEMP, slot).stream().anyMatch(d -> d.value().equals("23.0")));
            assertEquals("same page", chrome.evalString("window.__noReload"));

            // a stale vertex shows its marker
            model.markStale(TEMP, true);
            awaitEquals("shown", () -> chrome.evalString(staleShown), chrome);
            model.markStale(TEMP, false);
            awaitEquals("hidden", () -> chrome.evalString(staleShown), chrome);

            // Resume is offered and restarts deliveries
            chrome.eval("document.querySelector('button[data-action=\"resume\"][data-path=\"" + TEMP + "\"]').click()");
            awaitEquals("delivering", () -> chrome.evalString(state), chrome);
            model.publish(TEMP, "24.0");
            awaitEquals("24.0", () -> chrome.evalString(value), chrome);
            assertEquals(before + 1, model.received(TEMP, slot).size());
        }
    }

    /** Polls until the page shows the expected text; the deadline only keeps a broken run from hanging. */
    static void awaitEquals(String expected, Callable<String> probe, HeadlessChromium chrome) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        String last = null;
        while (System.nanoTime() < deadline) {
            last = probe.call();
            if (expected.equals(last)) {
                return;
            }
            Thread.sleep(50);
        }
        assertEquals(expected, last, "page never showed it; chromium log:\n" + chrome.log());
    }
}
