package io.spectrum.examples.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.board.BoardFixture;
import io.spectrum.wire.WireError;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Countdown} started from a board file and driven loop turn by loop turn. */
class CountdownTest {
    @TempDir
    Path tmp;

    private static String board(String from) {
        return "apps:\n  - {class: io.spectrum.examples.app.Countdown, settings: {from: " + from + "}}\n";
    }

    @Test
    void itCountsDownOnceASecondStopsAtZeroAndRestartsFromTheHostsWrite() throws Exception {
        try (BoardFixture b = new BoardFixture(board("2"), tmp)) {
            assertEquals(2, b.raw("/countdown/remaining"));
            assertEquals(0, b.raw("/countdown/done"));
            b.step(1000);
            assertEquals(1, b.raw("/countdown/remaining"));
            b.step(2000);
            assertEquals(0, b.raw("/countdown/remaining"));
            assertEquals(1, b.raw("/countdown/done"));
            b.step(3000);
            assertEquals(0, b.raw("/countdown/remaining"), "it stays at 0");

            assertEquals(WireError.OK, b.write("/countdown/start", 5), "the host restarts it");
            assertEquals(5, b.raw("/countdown/remaining"));
            assertEquals(0, b.raw("/countdown/done"));
            assertEquals(WireError.SCHEMA_TYPE_MISMATCH, b.write("/countdown/start", 4000), "above 3600: refused");
            assertEquals(5, b.raw("/countdown/remaining"), "a refused write changes nothing");
        }
    }

    @Test
    void aStartValueOutsideTheRangeRefusesTheBoardsStart() {
        Exception e = assertThrows(Exception.class, () -> new BoardFixture(board("4000"), tmp).close());
        assertTrue(String.valueOf(e.getMessage()).contains("settings.from must be 0..3600 seconds, was 4000"),
                String.valueOf(e));
    }
}
