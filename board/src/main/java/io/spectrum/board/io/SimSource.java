package io.spectrum.board.io;

import io.spectrum.board.app.AppVertex;
import io.spectrum.board.app.BoardContext;

/**
 * A simulated sensor (the demo board, trying a board file without hardware): each period n,
 * {@code base + amplitude × wave(phase + n / cycle) + jitter × sin(1.7 n)} in raw units, where wave
 * is sin or cos and the phase comes from the board's name (so two demo boards differ); {@code count}
 * publishes n itself.
 */
public final class SimSource implements Binding {
    private final String wave;
    private final double base;
    private final double amplitude;
    private final double cycle;
    private final double jitter;
    private final long periodMillis;
    private double phase;
    private long n;

    /**
     * The wave ({@code sine}, {@code cosine} or {@code count}; any other name publishes {@code base}) with its base,
     * amplitude, cycle (the divisor of n inside the wave) and jitter in raw units, published every {@code
     * periodMillis} (0 or less: once, at start).
     */
    public SimSource(String wave, double base, double amplitude, double cycle, double jitter, long periodMillis) {
        this.wave = wave;
        this.base = base;
        this.amplitude = amplitude;
        this.cycle = cycle;
        this.jitter = jitter;
        this.periodMillis = periodMillis;
    }

    @Override
    public void open(BoardContext board, AppVertex vertex) {
        phase = (board.name().hashCode() & 0xFF) * 1.3;
        publish(vertex);
        if (periodMillis > 0) {
            board.every(periodMillis, () -> {
                n++;
                publish(vertex);
            });
        }
    }

    private void publish(AppVertex vertex) {
        long v;
        switch (wave) {
            case "count" -> v = n;
            case "sine" -> v = Math.round(base + amplitude * Math.sin(phase + n / cycle) + jitter * Math.sin(n * 1.7));
            case "cosine" -> v = Math.round(base + amplitude * Math.cos(phase + n / cycle) + jitter * Math.sin(n * 1.7));
            default -> v = Math.round(base);
        }
        vertex.publish(v);
    }

    @Override
    public String describe() {
        return "sim " + wave;
    }
}
