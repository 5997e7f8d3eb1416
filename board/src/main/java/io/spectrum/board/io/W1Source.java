package io.spectrum.board.io;

import io.spectrum.board.app.AppVertex;
import io.spectrum.board.app.BoardContext;

/** A 1-Wire temperature sensor ({@link W1Sensor}) published in °C every period (declare the vertex in Cel). */
public final class W1Source extends Polled {
    private final String device;
    private W1Sensor sensor;

    /** Reads 1-Wire {@code device} at start and every {@code periodMillis} (0 or less: only at start). */
    public W1Source(String device, long periodMillis) {
        super(periodMillis);
        this.device = device;
    }

    @Override
    void prepare(BoardContext board, AppVertex vertex) {
        sensor = new W1Sensor(board.sys(), device);
    }

    @Override
    void sample(AppVertex vertex) throws Exception {
        double c = sensor.celsius();
        published(vertex.publishUnit(c), vertex, c + " °C");
    }

    @Override
    public String describe() {
        return "w1 " + device;
    }
}
