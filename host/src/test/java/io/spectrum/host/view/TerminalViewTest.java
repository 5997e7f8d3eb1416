package io.spectrum.host.view;

import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TerminalViewTest {
    @Test
    void changeLinesReportNewValuesAndStalenessOnce() {
        InMemoryHostModel m = new InMemoryHostModel("host");
        m.publish("/b1/temp", "20.5");
        m.publish("/b2/temp", "19.0");
        TerminalView v = new TerminalView();
        assertEquals(List.of("/b1/temp = 20.5  (seq 1)", "/b2/temp = 19.0  (seq 1)"), v.changes(m.snapshot()));
        assertEquals(List.of(), v.changes(m.snapshot()), "nothing new, nothing printed");
        m.publish("/b2/temp", "19.5");
        m.markStale("/b1/temp", true);
        assertEquals(List.of("/b1/temp = 20.5  (seq 1, stale)", "/b2/temp = 19.5  (seq 2)"), v.changes(m.snapshot()));
    }

    @Test
    void aStaleChangeLineNamesTheReason() {
        TerminalView v = new TerminalView();
        VertexView fresh = new VertexView("/b1/temp", "20.5", true, 20.5, "", 1, false, List.of(), null, 0, null);
        VertexView stale = new VertexView("/b1/temp", "20.5", true, 20.5, "", 1, true, List.of(), null, 0, "board away");
        assertEquals(List.of("/b1/temp = 20.5  (seq 1)"), v.changes(new HostSnapshot("host", 1, List.of(fresh), List.of())));
        assertEquals(List.of("/b1/temp = 20.5  (seq 1, stale: board away)"),
                v.changes(new HostSnapshot("host", 2, List.of(stale), List.of())));
    }

    @Test
    void tableShowsValuesSubscribersStaleAndLinks() {
        InMemoryHostModel m = new InMemoryHostModel("host");
        m.publish("/b1/temp", "20.5");
        m.subscribe("/b1/temp", "local", "view");
        int s = m.subscribe("/b1/temp", "udp:1.2.3.4:5", "peer#1");
        assertEquals(WireError.OK, m.suspend("/b1/temp", s));
        m.markStale("/b1/temp", true);
        m.putLink(new LinkView("udp 0.0.0.0:7700", false, Map.of("frames_in", 4L)));
        m.putLink(new LinkView("serial /dev/ttyUSB0", true, Map.of("frames_in", 9L, "frames_out", 3L,
                "dropped_corrupt", 2L, "dropped_invalid", 1L, "reconnects", 1L)));
        String t = TerminalView.table(m.snapshot(), "dashboard: http://x/", false);
        assertTrue(t.contains("/b1/temp"), t);
        assertTrue(t.contains("2 (1 suspended)"), t);
        assertTrue(t.contains("STALE"), t);
        assertTrue(t.contains("DOWN frames_in=4"), t);
        assertTrue(t.contains("up   in=9 out=3 dropped=3 reconnects=1"), t);
        assertTrue(t.endsWith("dashboard: http://x/" + System.lineSeparator()), t);
    }

    @Test
    void modelRefusesUnknownSlotsWithTypedErrorsAndKeepsHolesAfterClear() {
        InMemoryHostModel m = new InMemoryHostModel("host");
        m.publish("/a", "1");
        int s0 = m.subscribe("/a", "h", "t0");
        int s1 = m.subscribe("/a", "h", "t1");
        assertEquals(WireError.PATH_NOT_FOUND, m.suspend("/nope", 0));
        assertEquals(WireError.PATH_NOT_FOUND, m.resume("/a", 7));
        assertEquals(WireError.OK, m.clear("/a", s0));
        assertEquals(WireError.PATH_NOT_FOUND, m.clear("/a", s0), "a cleared slot is a hole");
        assertEquals(List.of(s1), m.snapshot().vertices().get(0).subscribers().stream().map(SlotView::slot).toList(),
                "slot numbers do not shift");
        m.publish("/a", "2");
        assertEquals(1, m.received("/a", s1).size());
    }
}
