package io.spectrum.link.serial;

import com.fazecast.jSerialComm.SerialPort;

/**
 * A UART through jSerialComm: 8 data bits, 1 stop bit, no parity, the configured baud; non-blocking
 * reads and writes (a write takes what the driver's buffer has room for). The port is looked up by path on
 * every {@link #open}, because a re-plugged USB adapter or a restarted pty pair may point the same
 * path (or symlink) at a new device node.
 */
public final class JSerialCommPort implements SerialPortIo {
    private final String path;
    private final int baud;
    private volatile SerialPort port;

    public JSerialCommPort(String path, int baud) {
        this.path = path;
        this.baud = baud;
    }

    @Override
    public boolean open() {
        close();
        SerialPort p;
        try {
            p = SerialPort.getCommPort(path);
        } catch (RuntimeException notThere) {
            // SerialPortInvalidPortException: the device (or the pty symlink) does not exist now.
            return false;
        }
        p.setComPortParameters(baud, 8, SerialPort.ONE_STOP_BIT, SerialPort.NO_PARITY);
        // Non-blocking both ways: jSerialComm's blocking write spins in native code past its timeout
        // when a pty's buffer is full; the link keeps the unsent rest of a frame and retries instead.
        p.setComPortTimeouts(SerialPort.TIMEOUT_NONBLOCKING, 0, 0);
        if (!p.openPort()) {
            return false;
        }
        port = p;
        return true;
    }

    @Override
    public int read(byte[] buf, int off, int len) {
        SerialPort p = port;
        if (p == null) {
            return -1;
        }
        int available = p.bytesAvailable();
        if (available < 0) {
            return -1;
        }
        if (available == 0) {
            return 0;
        }
        int n = p.readBytes(buf, Math.min(available, len), off);
        return n < 0 ? -1 : n;
    }

    @Override
    public int write(byte[] buf, int off, int len) {
        SerialPort p = port;
        if (p == null) {
            return -1;
        }
        int n = p.writeBytes(buf, len, off);
        if (n == 0 && p.bytesAvailable() < 0) {
            // A vanished pty or adapter answers writes with 0, not -1; the read side tells the truth.
            return -1;
        }
        return n < 0 ? -1 : n;
    }

    @Override
    public void close() {
        SerialPort p = port;
        port = null;
        if (p != null) {
            p.closePort();
        }
    }

    @Override
    public String describe() {
        return path + "@" + baud;
    }
}
