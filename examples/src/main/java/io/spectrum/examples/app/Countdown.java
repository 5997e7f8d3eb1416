package io.spectrum.examples.app;

import io.spectrum.board.app.AppVertex;
import io.spectrum.board.app.BoardApp;
import io.spectrum.board.app.BoardContext;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.WireError;

/**
 * A board app (docs/board.md, "Board apps") with no hardware at all: a countdown in seconds. It
 * declares its vertices in {@code start}, counts down with {@code every} on the node's loop, and
 * restarts when the host writes a new start value; the declaration's range refuses a value outside it
 * before the app hears of it. Everything runs on the node's one thread, so there are no locks.
 *
 * <pre>
 * /countdown/remaining  u16 s  ro  seconds left
 * /countdown/start      u16 s  rw  0..3600: write N to count down from N
 * /countdown/done       u8     ro  1 once it reached 0
 * </pre>
 * Settings (board file {@code apps: - class: io.spectrum.examples.app.Countdown settings: {from: 60}}):
 * {@code from}, the first start value (60).
 */
public final class Countdown implements BoardApp {
    private AppVertex remaining;
    private AppVertex start;
    private AppVertex done;

    /** The board makes the app from the board file's {@code apps:} list. */
    public Countdown() {
    }

    @Override
    public void start(BoardContext board) {
        remaining = board.declare("/countdown/remaining", VertexSchema.value(2, false).unit("s").range(0, 3600)
                .readOnly().description("seconds left").build());
        start = board.declare("/countdown/start", VertexSchema.value(2, false).unit("s").range(0, 3600)
                .writable().description("write N to count down from N").build());
        done = board.declare("/countdown/done", VertexSchema.value(1, false).range(0, 1).readOnly()
                .description("1 once the countdown reached 0").build());
        start.onWrite((v, raw) -> restart(raw)); // after the node accepted the write, on its loop
        board.every(1000, this::tick);
        String from = board.setting("from", "60");
        if (!from.matches("[0-9]{1,4}") || start.publish(Long.parseLong(from)) != WireError.OK) {
            throw new IllegalArgumentException("settings.from must be 0..3600 seconds, was " + from);
        }
        restart(start.raw());
    }

    private void restart(long seconds) {
        remaining.publish(seconds);
        done.publish(seconds == 0 ? 1 : 0);
    }

    private void tick() {
        if (remaining.raw() > 0) {
            remaining.publish(remaining.raw() - 1);
            if (remaining.raw() == 0) {
                done.publish(1);
            }
        }
    }
}
