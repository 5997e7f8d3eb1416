package io.spectrum.bench.link;

import io.spectrum.link.serial.SerialPortIo;

/**
 * A serial port double that lets bytes out no faster than a UART would: 8N1 sends 10 bits per byte,
 * so baud/10 bytes per second (a token bucket on System.nanoTime, at most {@code burst} bytes
 * ahead). A pty ignores the baud rate, so this is how the serial goodput is measured.
 */
final class PacedSerialPort implements SerialPortIo {
    private final SerialPortIo inner;
    private final double bytesPerNano;
    private final int burst;
    private long start;
    private long written;

    PacedSerialPort(SerialPortIo inner, int baud, int burst) {
        this.inner = inner;
        this.bytesPerNano = baud / 10.0 / 1e9;
        this.burst = burst;
    }

    @Override
    public boolean open() {
        start = System.nanoTime();
        written = 0;
        return inner.open();
    }

    @Override
    public int read(byte[] buf, int off, int len) {
        return inner.read(buf, off, len);
    }

    @Override
    public int write(byte[] buf, int off, int len) {
        long allowed = (long) ((System.nanoTime() - start) * bytesPerNano) - written;
        if (allowed < -burst) {
            return 0;
        }
        int n = (int) Math.min(len, Math.max(0, allowed + burst));
        if (n == 0) {
            return 0;
        }
        n = inner.write(buf, off, n);
        if (n > 0) {
            written += n;
        }
        return n;
    }

    @Override
    public void close() {
        inner.close();
    }

    @Override
    public String describe() {
        return "paced " + inner.describe();
    }
}
