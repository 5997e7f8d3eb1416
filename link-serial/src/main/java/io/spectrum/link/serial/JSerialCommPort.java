package io.spectrum.link.serial;

import com.fazecast.jSerialComm.SerialPort;

/**
 * A UART through jSerialComm: 8 data bits, 1 stop bit, no parity, the configured baud; non-blocking
 * reads and writes that block up to {@code writeTimeoutMillis}. The port is looked up by path on
 * every {@link #open}, because a re-plugged USB adapter or a restarted pty pair may point the same
 * path (or symlink) at a new device node.
 */
public final class JSerialCommPort implements SerialPortIo {
    private final String path;
    private final int baud;
    private final int writeTimeoutMillis;
    private volatile SerialPort port;

    public JSerialCommPort(String path, int baud, int writeTimeoutMillis) {
        this.path = path;
        this.baud = baud;
        this.writeTimeoutMillis = writeTimeoutMillis;
    }

    public JSerialCommPort(String path, int baud) {
        this(path, baud, 1000);
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
        p.setComPortTimeouts(SerialPort.TIMEOUT_NONBLOCKING | SerialPort.TIMEOUT_WRITE_BLOCKING, 0,
                writeTimeoutMillis);
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
