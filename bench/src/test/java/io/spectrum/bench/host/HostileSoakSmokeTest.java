package io.spectrum.bench.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The hostile soak for a few seconds (MQTT included where mosquitto is installed, skipped with a
 * printed reason otherwise): the subscribers lose no value, every table of the host, the boards and
 * the bus has the inUse it had before the clean phase, the hostile clients did send, and the bus
 * client published without an error. Nothing here is timed: the latencies are the benchmark's output.
 */
class HostileSoakSmokeTest {
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aShortSoakLosesNoValueAndLeavesEveryTableAsItWas() throws Exception {
        HostileSoak.Result r = HostileSoak.run(8_000, 2, 50, 20, "mosquitto", true, new PrintStream(System.out, true));
        HostileSoak.print(r, System.out);
        assertEquals(0, r.lost(), "values lost");
        assertEquals(0, r.outOfOrder(), "values out of order");
        assertTrue(r.received() > 0, "the subscribers received values");
        assertEquals(r.before(), r.after(), "every table's inUse before the clean phase and after the settle");
        assertTrue(r.attacks().get("forgedClears") > 0 && r.attacks().get("garbage") > 0
                && r.attacks().get("oversizedWrites") > 0, "the hostile clients sent: " + r.attacks());
        assertEquals(0, r.busErrors(), "bus publish errors");
        assertTrue(r.busPublished() > 0, "the bus client published");
    }
}
