package io.spectrum.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spectrum.client.ValueLine;
import org.junit.jupiter.api.Test;

/**
 * How a value's origin time is shown (docs/extensions.md "Origin time"): {@code origin} in ms in every
 * JSON line that carries the stamp (sub --json, record, the MQTT payload), and its age in a text line
 * only when it is a second old or more: {@code (seq 5, 3 s ago)}.
 */
class ValueAgeTest {
    private static final long ORIGIN = 1_700_000_000_000L;

    @Test
    void theAgeIsSaidInWholeUnits_onlyFromASecondOn() {
        assertEquals("", ValueLine.age(ORIGIN, ORIGIN + 999), "under a second: nothing claimed");
        assertEquals("", ValueLine.age(ORIGIN, ORIGIN - 5_000), "a clock behind the origin: nothing claimed");
        assertEquals("", ValueLine.age(0, ORIGIN), "no origin: no age");
        assertEquals("1 s ago", ValueLine.age(ORIGIN, ORIGIN + 1_000));
        assertEquals("59 s ago", ValueLine.age(ORIGIN, ORIGIN + 59_999));
        assertEquals("2 min ago", ValueLine.age(ORIGIN, ORIGIN + 150_000));
        assertEquals("5 h ago", ValueLine.age(ORIGIN, ORIGIN + 5 * 3_600_000L + 1));
        assertEquals("3 d ago", ValueLine.age(ORIGIN, ORIGIN + 3 * 86_400_000L));
    }

    @Test
    void theStampTextPutsTheAgeAfterTheSequence_theJsonGivesTheOriginInMs() {
        assertEquals("seq 5", ValueLine.stampText(5, false, null, ORIGIN, ORIGIN + 400));
        assertEquals("seq 5, 3 s ago", ValueLine.stampText(5, false, null, ORIGIN, ORIGIN + 3_000));
        assertEquals("seq 5, 2 min ago, stale: board away", ValueLine.stampText(5, true, "board away", ORIGIN, ORIGIN + 120_000));
        assertEquals("seq 5, stale: board away", ValueLine.stampText(5, true, "board away"), "no origin known: as before");
        ObjectNode o = JsonLines.line("/board1/temp");
        ValueLine.stamp(JsonLines.fields(o), 5, false, null, ORIGIN);
        assertEquals(ORIGIN, o.get("origin").asLong());
        ObjectNode none = JsonLines.line("/board1/temp");
        ValueLine.stamp(JsonLines.fields(none), 5, false, null, 0);
        assertFalse(none.has("origin"), "a stamp without an origin: no key");
    }
}
