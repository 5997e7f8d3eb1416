package io.spectrum.examples.counter;

import com.pi4j.io.gpio.digital.DigitalInput;
import com.pi4j.io.gpio.digital.DigitalState;
import com.pi4j.io.gpio.digital.PullResistance;
import io.spectrum.board.app.AppVertex;
import io.spectrum.board.app.BoardApp;
import io.spectrum.board.app.BoardContext;
import io.spectrum.board.app.Signal;
import io.spectrum.node.api.VertexSchema;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts falling edges on a GPIO input (a button, a reed switch, an S0 energy meter's pulses) and
 * publishes the count: pi4j reports each edge on its own thread, where it is counted (none is lost
 * however fast they come); a {@link Signal} has the node's loop publish the total. The host resets
 * the count by writing 0 to it.
 *
 * <pre>
 * /counter/count   u32  rw   edges counted (write 0 to reset)
 * /counter/level   u8   ro   the input's level after the last edge
 * </pre>
 * Settings: {@code pin} the BCM pin (23), {@code pull} up/down/off (up: a switch to ground),
 * {@code edge} falling/rising/both (falling).
 */
public final class EdgeCounter implements BoardApp {
    private final AtomicLong edges = new AtomicLong();
    private volatile boolean level;
    private long base;
    private AppVertex count;
    private AppVertex levelVertex;

    @Override
    public void start(BoardContext board) {
        int pin = Integer.parseInt(board.setting("pin", "23"));
        String pull = board.setting("pull", "up");
        String edge = board.setting("edge", "falling");
        count = board.declare("/counter/count", VertexSchema.value(4, false).writable()
                .description("edges counted on BCM " + pin + " (write 0 to reset)").build());
        levelVertex = board.declare("/counter/level", VertexSchema.value(1, false).range(0, 1).readOnly()
                .description("BCM " + pin + " level").build());
        DigitalInput in = board.pi4j().create(DigitalInput.newConfigBuilder(board.pi4j()).id("counter-in")
                .name("edge counter").address(pin)
                .pull(pull.equals("up") ? PullResistance.PULL_UP : pull.equals("down") ? PullResistance.PULL_DOWN
                        : PullResistance.OFF).build());
        Signal publish = board.signal(this::publish);
        in.addListener(e -> {
            boolean high = e.state() == DigitalState.HIGH;
            level = high;
            if (edge.equals("both") || high == edge.equals("rising")) {
                edges.incrementAndGet();
            }
            publish.raise();
        });
        level = in.isHigh();
        count.onWrite((v, raw) -> {
            base = edges.get() - raw; // the host sets the count (0: reset)
            publish();
        });
        publish();
    }

    private void publish() {
        count.publish((edges.get() - base) & 0xFFFF_FFFFL);
        levelVertex.publish(level ? 1 : 0);
    }
}
