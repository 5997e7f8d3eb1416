package io.spectrum.bench.wide;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * WideScale runs through at a toy size: every edge it made got its deliveries (it also checks its
 * own edge counts and throws when they are wrong), and it reports every figure it promises.
 */
class WideScaleSmokeTest {
    @Test
    void runsAtAToySize_deliveringToEveryEdge_andReportsEachFigure() {
        WideScale.delivered = 0;
        PrintStream out = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            WideScale.main(new String[] {"vertices=2000", "rounds=1"});
        } finally {
            System.setOut(out);
        }
        // one pass of "write delivering to its one edge" over 2,000 vertices is 2,000 deliveries
        assertTrue(WideScale.delivered >= 2000, "deliveries: " + WideScale.delivered);
        String report = printed.toString(StandardCharsets.UTF_8);
        for (String figure : new String[] {"create + write (fresh node)", "write (existing vertex)", "read",
                "subscribe (one edge per vertex)", "write delivering to its one edge", "unsubscribe (close the edge)",
                "bytes per vertex"}) {
            assertTrue(report.contains(figure), figure + " in:\n" + report);
        }
    }
}
