package io.spectrum.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.pi4j.io.gpio.digital.DigitalState;
import com.pi4j.plugin.mock.provider.gpio.digital.MockDigitalInput;
import com.pi4j.plugin.mock.provider.gpio.digital.MockDigitalOutput;
import io.spectrum.board.BoardFixture;
import io.spectrum.wire.WireError;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The two example apps, started from a board file on pi4j's mock platform with a fake 1-Wire sensor. */
class ExamplesTest {
    @TempDir
    Path tmp;

    private Path w1;

    private void temperature(String milli) throws Exception {
        Files.writeString(w1.resolve("temperature"), milli + "\n");
    }

    @Test
    void theThermostatSwitchesAcrossSetpointAndHysteresisAndFollowsANewSetpoint() throws Exception {
        w1 = Files.createDirectories(tmp.resolve("sys/bus/w1/devices/28-0000075a3c1f"));
        temperature("22000");
        try (BoardFixture b = new BoardFixture("""
                platform: mock
                sys: sys
                apps:
                  - class: io.spectrum.examples.thermostat.Thermostat
                    settings: {sensor: 28-0000075a3c1f, relay: 17, setpoint: 21, hysteresis: 0.5, period: 2000}
                """, tmp)) {
            MockDigitalOutput relay = b.host.pi4j().registry().get("thermostat-relay", MockDigitalOutput.class);
            assertEquals(2200, b.raw("/thermostat/temp"));
            assertEquals(DigitalState.LOW, relay.state(), "22 °C > 21 - 0.5: off");
            temperature("20600"); // inside the band: no change
            b.step(2000);
            assertEquals(DigitalState.LOW, relay.state());
            temperature("20400"); // below 20.5: heat
            b.step(4000);
            assertEquals(DigitalState.HIGH, relay.state());
            assertEquals(1, b.raw("/thermostat/heating"));
            temperature("21400"); // inside the band: keeps heating
            b.step(6000);
            assertEquals(DigitalState.HIGH, relay.state());
            temperature("21600"); // above 21.5: off
            b.step(8000);
            assertEquals(DigitalState.LOW, relay.state());
            assertEquals(0, b.raw("/thermostat/heating"));

            // the host raises the setpoint to 23 °C: 21.6 is now below 22.5, heating starts at once
            assertEquals(WireError.OK, b.write("/thermostat/setpoint", 2300));
            assertEquals(DigitalState.HIGH, relay.state());
            temperature("23400"); // inside the new band
            b.step(10000);
            assertEquals(DigitalState.HIGH, relay.state());
            temperature("23600"); // above 23.5: off
            b.step(12000);
            assertEquals(DigitalState.LOW, relay.state());
            assertEquals(WireError.SCHEMA_TYPE_MISMATCH, b.write("/thermostat/setpoint", 9000), "above 85 °C: refused");
            assertEquals(2300, b.raw("/thermostat/setpoint"));

            // a sensor that cannot be read: the last value stays, marked stale with why; the relay stays put
            io.spectrum.node.api.NodePath t = io.spectrum.node.api.NodePath.of("/thermostat/temp");
            temperature("garbage");
            b.step(14000);
            assertEquals(2360, b.raw("/thermostat/temp"));
            assertTrue(b.node.isStale(t), "a failed read marks the temperature stale");
            assertEquals("w1 28-0000075a3c1f: temperature: not a number: \"garbage\"", b.node.staleReason(t));
            assertEquals(DigitalState.LOW, relay.state(), "a loose wire does not switch the heater");
            temperature("20000"); // it reads again: fresh, and the control runs
            b.step(16000);
            assertFalse(b.node.isStale(t));
            assertEquals(DigitalState.HIGH, relay.state());
        }
    }

    @Test
    void theCounterCountsEveryMockEdgeExactly() throws Exception {
        try (BoardFixture b = new BoardFixture("""
                platform: mock
                apps:
                  - {class: io.spectrum.examples.counter.EdgeCounter, settings: {pin: 23, pull: up, edge: falling}}
                """, tmp)) {
            MockDigitalInput in = b.host.pi4j().registry().get("counter-in", MockDigitalInput.class);
            in.mockState(DigitalState.HIGH);
            b.step(0);
            assertEquals(0, b.raw("/counter/count"));
            for (int i = 0; i < 250; i++) { // 250 presses, several between loop turns
                in.mockState(DigitalState.LOW);
                in.mockState(DigitalState.HIGH);
                if (i % 7 == 0) {
                    b.step(0);
                }
            }
            b.step(0);
            assertEquals(250, b.raw("/counter/count"));
            assertEquals(1, b.raw("/counter/level"));
            assertEquals(WireError.OK, b.write("/counter/count", 0), "the host resets it");
            assertEquals(0, b.raw("/counter/count"));
            in.mockState(DigitalState.LOW);
            b.step(0);
            assertEquals(1, b.raw("/counter/count"));
            assertEquals(0, b.raw("/counter/level"));
        }
    }
}
