package io.spectrum.examples.thermostat;

import com.pi4j.io.gpio.digital.DigitalOutput;
import com.pi4j.io.gpio.digital.DigitalState;
import io.spectrum.board.app.AppVertex;
import io.spectrum.board.app.BoardApp;
import io.spectrum.board.app.BoardContext;
import io.spectrum.board.io.W1Sensor;
import io.spectrum.node.api.VertexSchema;

/**
 * A heating thermostat: a DS18B20 on the 1-Wire bus (GPIO4) in, a relay (GPIO17) out. Every period
 * it reads the temperature, publishes it and switches the heater on below setpoint − hysteresis, off
 * above setpoint + hysteresis (between the two it keeps its state, so it does not chatter). The host
 * writes the setpoint; the switch point moves at once.
 *
 * <pre>
 * /thermostat/temp        i16 Cel ×0.01  ro   the measured temperature
 * /thermostat/setpoint    i16 Cel ×0.01  rw   -40..85 °C, from the setting "setpoint" (default 21)
 * /thermostat/hysteresis  u16 Cel ×0.01  rw   0..10 °C, from the setting "hysteresis" (default 0.5)
 * /thermostat/heating     u8 0..1        ro   the relay as driven (1 = heating)
 * </pre>
 * Settings (board file {@code apps: - class: io.spectrum.examples.thermostat.Thermostat settings:}):
 * {@code sensor} the 1-Wire id (required), {@code relay} the BCM pin (17), {@code active-low}
 * (false), {@code period} ms (2000), {@code setpoint}, {@code hysteresis}.
 */
public final class Thermostat implements BoardApp {
    private W1Sensor sensor;
    private DigitalOutput relay;
    private boolean activeLow;
    private AppVertex temp;
    private AppVertex setpoint;
    private AppVertex hysteresis;
    private AppVertex heating;
    private boolean on;
    private boolean haveTemp;
    private String sensorName;
    /** Why the last read failed; null while the sensor reads. */
    private String failing;

    @Override
    public void start(BoardContext board) {
        String id = board.setting("sensor", null);
        if (id == null) {
            throw new IllegalArgumentException("settings.sensor is required: the DS18B20's id (ls /sys/bus/w1/devices)");
        }
        sensor = new W1Sensor(board.sys(), id);
        sensorName = "w1 " + id;
        int pin = Integer.parseInt(board.setting("relay", "17"));
        activeLow = Boolean.parseBoolean(board.setting("active-low", "false"));
        long period = Long.parseLong(board.setting("period", "2000"));

        temp = board.declare("/thermostat/temp", VertexSchema.value(2, true).unit("Cel").scale(0.01).readOnly()
                .description("measured temperature").build());
        setpoint = board.declare("/thermostat/setpoint", VertexSchema.value(2, true).unit("Cel").scale(0.01)
                .range(-4000, 8500).writable().description("switch point").build());
        hysteresis = board.declare("/thermostat/hysteresis", VertexSchema.value(2, false).unit("Cel").scale(0.01)
                .range(0, 1000).writable().description("half the dead band around the setpoint").build());
        heating = board.declare("/thermostat/heating", VertexSchema.value(1, false).range(0, 1).readOnly()
                .description("relay, 1 = heating").build());

        DigitalState off = activeLow ? DigitalState.HIGH : DigitalState.LOW;
        relay = board.pi4j().create(DigitalOutput.newConfigBuilder(board.pi4j()).id("thermostat-relay")
                .name("thermostat relay").address(pin).initial(off).shutdown(off).build());
        setpoint.publishUnit(Double.parseDouble(board.setting("setpoint", "21")));
        hysteresis.publishUnit(Double.parseDouble(board.setting("hysteresis", "0.5")));
        heating.publish(0);
        setpoint.onWrite((v, raw) -> control());
        hysteresis.onWrite((v, raw) -> control());
        board.every(period, this::measure);
        measure();
    }

    /**
     * Reads the sensor. A failed read keeps the relay as it is (a loose wire must not switch the
     * heater) and marks the temperature stale with the reason, so every reader sees it is not current;
     * the next good read clears the mark. The log says each change once, not every period.
     */
    private void measure() {
        try {
            temp.publishUnit(sensor.celsius());
            haveTemp = true;
            if (failing != null) {
                System.err.println("thermostat: " + sensorName + " reads again");
                failing = null;
            }
        } catch (java.io.IOException e) {
            String why = sensorName + ": " + e.getMessage();
            if (!why.equals(failing)) {
                System.err.println("thermostat: " + why);
                failing = why;
            }
            temp.markStale(why);
            return;
        }
        control();
    }

    private void control() {
        if (!haveTemp) {
            return;
        }
        double t = temp.value();
        double sp = setpoint.value();
        double h = hysteresis.value();
        if (!on && t < sp - h) {
            switchTo(true);
        } else if (on && t > sp + h) {
            switchTo(false);
        }
    }

    private void switchTo(boolean heat) {
        on = heat;
        relay.state(heat != activeLow ? DigitalState.HIGH : DigitalState.LOW);
        heating.publish(heat ? 1 : 0);
    }
}
