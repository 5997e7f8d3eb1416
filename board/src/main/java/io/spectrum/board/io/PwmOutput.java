package io.spectrum.board.io;

import com.pi4j.io.pwm.Pwm;
import com.pi4j.io.pwm.PwmType;
import io.spectrum.board.app.AppVertex;
import io.spectrum.board.app.BoardContext;

/**
 * A PWM output whose duty cycle is a writable vertex: the vertex's value in its unit (its
 * declaration's scale and offset applied) is the duty cycle in percent, 0 turns it off. Channel is
 * the PWM chip's channel (GPIO18 is channel 0 and GPIO19 channel 1 with dtoverlay=pwm-2chan).
 */
public final class PwmOutput implements Binding {
    private final int channel;
    private final int frequency;

    /** PWM {@code channel} of the board's PWM chip at {@code frequency} Hz. */
    public PwmOutput(int channel, int frequency) {
        this.channel = channel;
        this.frequency = frequency;
    }

    @Override
    public void open(BoardContext board, AppVertex v) throws Exception {
        Pwm pwm = board.pi4j().create(Pwm.newConfigBuilder(board.pi4j()).id("spectrum-pwm-" + channel)
                .name(v.path().toString()).address(channel).pwmType(PwmType.HARDWARE)
                .frequency(frequency).initial(0).shutdown(0).build());
        v.publish(v.schema().fromUnit(0));
        v.onWrite((vertex, raw) -> {
            double duty = Math.max(0, Math.min(100, vertex.schema().toUnit(raw)));
            if (duty == 0) {
                pwm.off();
            } else {
                pwm.on(duty, frequency);
            }
        });
    }

    @Override
    public String describe() {
        return "pwm channel " + channel + " at " + frequency + " Hz";
    }
}
