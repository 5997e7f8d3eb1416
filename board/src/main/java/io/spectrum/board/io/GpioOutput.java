package io.spectrum.board.io;

import com.pi4j.io.gpio.digital.DigitalOutput;
import com.pi4j.io.gpio.digital.DigitalState;
import io.spectrum.board.app.AppVertex;
import io.spectrum.board.app.BoardContext;
import io.spectrum.node.api.VertexSchema;

/**
 * A GPIO digital output (BCM numbering) driven by a writable vertex: 0 is low, anything else high
 * (inverted with active-low). After each write the pin's state is read back from pi4j and published
 * on the optional read-back vertex, so a host sees what the pin does, not only what was asked.
 */
public final class GpioOutput implements Binding {
    private final int pin;
    private final boolean activeLow;
    private final long initial;
    private final String readbackPath;
    private final MockPins mockPins;

    /**
     * BCM {@code pin}, inverted when {@code activeLow}, driven to {@code initial} at start; {@code readbackPath} (or
     * null) names the read-back vertex; {@code mockPins} (or null) mirrors the pin to a file on the mock platform.
     */
    public GpioOutput(int pin, boolean activeLow, long initial, String readbackPath, MockPins mockPins) {
        this.pin = pin;
        this.activeLow = activeLow;
        this.initial = initial;
        this.readbackPath = readbackPath;
        this.mockPins = mockPins;
    }

    @Override
    public void open(BoardContext board, AppVertex v) throws Exception {
        DigitalState off = activeLow ? DigitalState.HIGH : DigitalState.LOW;
        DigitalOutput out = board.pi4j().create(DigitalOutput.newConfigBuilder(board.pi4j())
                .id("spectrum-out-" + pin).name(v.path().toString()).address(pin)
                .initial(level(initial)).shutdown(off).build());
        AppVertex readback = readbackPath == null ? null : board.declare(readbackPath,
                VertexSchema.value(1, false).range(0, 1).readOnly().description("BCM " + pin + " as read back").build());
        v.publish(initial);
        publishState(out, readback);
        v.onWrite((vertex, raw) -> {
            out.state(level(raw));
            publishState(out, readback);
        });
        if (mockPins != null) {
            mockPins.mirror(pin, out);
        }
    }

    private DigitalState level(long raw) {
        boolean on = raw != 0;
        return on != activeLow ? DigitalState.HIGH : DigitalState.LOW;
    }

    private void publishState(DigitalOutput out, AppVertex readback) {
        if (readback != null) {
            boolean on = out.isHigh() != activeLow;
            readback.publish(on ? 1 : 0);
        }
    }

    @Override
    public String describe() {
        return "gpio-out BCM " + pin;
    }
}
