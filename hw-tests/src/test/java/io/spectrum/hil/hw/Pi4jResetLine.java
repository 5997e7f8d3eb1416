package io.spectrum.hil.hw;

import com.pi4j.Pi4J;
import com.pi4j.context.Context;
import com.pi4j.io.gpio.digital.DigitalOutput;
import com.pi4j.io.gpio.digital.DigitalState;
import com.pi4j.io.gpio.digital.DigitalStateChangeListener;
import com.pi4j.plugin.mock.platform.MockPlatform;
import com.pi4j.plugin.mock.provider.gpio.digital.MockDigitalInputProvider;
import com.pi4j.plugin.mock.provider.gpio.digital.MockDigitalOutputProvider;
import io.spectrum.hil.ResetLine;

/**
 * The board's reset line as a pi4j DigitalOutput on a BCM pin. A pulse drives it to the active level
 * for {@code pulseMillis}, then back. On the mock platform the output is a MockDigitalOutput; the
 * emulated board target listens to its state changes and turns them into a process restart, so the
 * same pulse code drives a real and an emulated board.
 */
public final class Pi4jResetLine implements ResetLine {
    private final Context pi4j;
    private final DigitalOutput out;
    private final boolean activeLow;
    private final int pulseMillis;
    private final String description;

    private Pi4jResetLine(Context pi4j, int bcmPin, boolean activeLow, int pulseMillis, String platform) {
        this.pi4j = pi4j;
        this.activeLow = activeLow;
        this.pulseMillis = pulseMillis;
        DigitalState idle = activeLow ? DigitalState.HIGH : DigitalState.LOW;
        this.out = pi4j.create(DigitalOutput.newConfigBuilder(pi4j).id("hil-reset").name("board reset")
                .address(bcmPin).initial(idle).shutdown(idle).build());
        this.description = "BCM " + bcmPin + (activeLow ? " active-low" : " active-high") + " (" + platform + ")";
    }

    /** A reset line on pi4j's mock platform (emulated boards, tests). */
    public static Pi4jResetLine mock(int bcmPin) {
        Context ctx = Pi4J.newContextBuilder()
                .add(new MockPlatform())
                .add(MockDigitalInputProvider.newInstance(), MockDigitalOutputProvider.newInstance())
                .build();
        return new Pi4jResetLine(ctx, bcmPin, false, 20, "pi4j mock");
    }

    /**
     * A reset line on the platform pi4j detects (a Raspberry Pi with a GPIO plugin on the class
     * path, e.g. pi4j-plugin-gpiod). Fails with a clear message when no GPIO provider is there.
     */
    public static Pi4jResetLine auto(int bcmPin, boolean activeLow, int pulseMillis) {
        Context ctx = Pi4J.newAutoContext();
        try {
            return new Pi4jResetLine(ctx, bcmPin, activeLow, pulseMillis, "pi4j auto");
        } catch (RuntimeException e) {
            ctx.shutdown();
            throw new IllegalStateException("cannot drive BCM " + bcmPin + " as the reset line: " + e.getMessage()
                    + " (put a pi4j GPIO plugin such as pi4j-plugin-gpiod on the class path)", e);
        }
    }

    /** Observes the line (the emulated board target restarts its process on the pulse). */
    public void addListener(DigitalStateChangeListener l) {
        out.addListener(l);
    }

    /** True when {@code state} is the line's active (reset asserted) level. */
    public boolean isActive(DigitalState state) {
        return activeLow ? state == DigitalState.LOW : state == DigitalState.HIGH;
    }

    /** The pi4j output driving the line. */
    public DigitalOutput output() {
        return out;
    }

    @Override
    public void pulse() throws InterruptedException {
        if (activeLow) {
            out.low();
        } else {
            out.high();
        }
        Thread.sleep(pulseMillis);
        if (activeLow) {
            out.high();
        } else {
            out.low();
        }
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public void close() {
        pi4j.shutdown();
    }
}
