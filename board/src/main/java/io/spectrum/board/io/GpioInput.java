package io.spectrum.board.io;

import com.pi4j.io.gpio.digital.DigitalInput;
import com.pi4j.io.gpio.digital.DigitalState;
import com.pi4j.io.gpio.digital.PullResistance;
import io.spectrum.board.app.AppVertex;
import io.spectrum.board.app.BoardContext;
import io.spectrum.board.app.Signal;
import io.spectrum.node.api.VertexSchema;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A GPIO digital input (BCM numbering) published as 0/1 on each edge. pi4j reports the edge on its
 * own thread; the new level and time are kept there and a {@link Signal} has the node's loop
 * publish it. With a debounce time the level is published once it has held that long (a bouncing
 * contact publishes once); without one every edge is published. An optional second vertex counts
 * edges: every pi4j edge without debounce (none is lost between loop turns), every published change
 * with it.
 */
public final class GpioInput implements Binding {
    private final int pin;
    private final PullResistance pull;
    private final long debounceNanos;
    private final String edgesPath;
    private final MockPins mockPins;
    private io.spectrum.time.Clock clock;
    private final AtomicLong events = new AtomicLong();
    private volatile boolean level;
    private volatile long changedAt;
    private boolean published;
    private boolean pending;
    private long changes;
    private AppVertex vertex;
    private AppVertex edges;

    /**
     * BCM {@code pin} with {@code pull}; {@code debounceMillis} 0 publishes every edge; {@code edgesPath} (or null)
     * names the edge-counter vertex; {@code mockPins} (or null) mirrors the pin to a file on the mock platform.
     */
    public GpioInput(int pin, PullResistance pull, long debounceMillis, String edgesPath, MockPins mockPins) {
        this.pin = pin;
        this.pull = pull;
        this.debounceNanos = debounceMillis * 1_000_000L;
        this.edgesPath = edgesPath;
        this.mockPins = mockPins;
    }

    @Override
    public void open(BoardContext board, AppVertex v) throws Exception {
        this.vertex = v;
        if (edgesPath != null) {
            edges = board.declare(edgesPath, VertexSchema.value(4, false).readOnly()
                    .description("edges seen on BCM " + pin).build());
            edges.publish(0);
        }
        DigitalInput in = board.pi4j().create(DigitalInput.newConfigBuilder(board.pi4j())
                .id("spectrum-in-" + pin).name(v.path().toString()).address(pin).pull(pull).build());
        clock = board.clock();
        Signal settle = board.signal(this::settle);
        in.addListener(e -> {
            level = e.state() == DigitalState.HIGH;
            changedAt = clock.nanoTime();
            events.incrementAndGet();
            settle.raise();
        });
        level = in.isHigh();
        published = level;
        v.publish(level ? 1 : 0);
        if (debounceNanos > 0) {
            // a level that is still bouncing when the signal runs is looked at again when it has held
            board.every(Math.max(1, debounceNanos / 1_000_000L), () -> {
                if (pending) {
                    settle();
                }
            });
        }
        if (mockPins != null) {
            mockPins.follow(pin, in, board.sleeper());
        }
    }

    /** On the loop: publishes the level once it is stable. */
    private void settle() {
        if (debounceNanos > 0 && clock.nanoTime() - changedAt < debounceNanos) {
            pending = true;
            return;
        }
        pending = false;
        boolean now = level;
        if (debounceNanos == 0) {
            vertex.publish(now ? 1 : 0);
            published = now;
            if (edges != null) {
                edges.publish(events.get() & 0xFFFF_FFFFL);
            }
            return;
        }
        if (now != published) {
            published = now;
            changes++;
            vertex.publish(now ? 1 : 0);
            if (edges != null) {
                edges.publish(changes & 0xFFFF_FFFFL);
            }
        }
    }

    @Override
    public String describe() {
        return "gpio-in BCM " + pin;
    }
}
