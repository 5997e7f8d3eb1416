package io.spectrum.link.serial;

import com.fazecast.jSerialComm.SerialPort;
import com.fazecast.jSerialComm.SerialPortDataListener;
import com.fazecast.jSerialComm.SerialPortEvent;
import io.spectrum.time.Clock;
import io.spectrum.time.Sleeper;
import io.spectrum.time.SystemClock;

/**
 * A UART through jSerialComm: 8 data bits, 1 stop bit, no parity, the configured baud; non-blocking
 * reads.
 *
 * <p>Writes go through a bounded ring drained by one writer thread per open port. jSerialComm's
 * native write does not return until every byte is out (seen on ptys: it spins on EAGAIN past any
 * configured write timeout), so writing from the node's thread could stall the node behind a slow
 * or unread line. {@link #write} therefore copies what fits into the ring and returns at once; a
 * failed native write (unplugged adapter, closed pty) makes the next read or write answer -1.
 * The writer keeps to the line's pace ({@link PacedWriter}) on the injected clock and sleeper: the
 * system clock unless a constructor is given another. {@link SerialLink#open} builds its port on the
 * system clock whatever clock the link reads: the pace is the UART's real time, and a writer thread
 * sleeping on a manual clock would move the link's test time from another thread.
 *
 * <p>The port is looked up by path on every {@link #open}, because a re-plugged USB adapter or a
 * restarted pty pair may point the same path (or symlink) at a new device node.
 */
public final class JSerialCommPort implements SerialPortIo {
    /** How long {@link #close} lets the writer hand over what is queued. */
    static final long CLOSE_DRAIN_NANOS = 500_000_000L;

    private final String path;
    private final int baud;
    private final PacedWriter out;
    /** errno of the last failed {@link #open} (ENOENT when the device was not there), 0 after a good one. */
    private volatile int openErrno;
    private volatile SerialPort port;
    private volatile Runnable onData;
    private Thread writer;

    /** jSerialComm's data-available event, forwarded to {@link #setDataListener}'s runnable. */
    private final SerialPortDataListener events = new SerialPortDataListener() {
        @Override
        public int getListeningEvents() {
            return SerialPort.LISTENING_EVENT_DATA_AVAILABLE;
        }

        @Override
        public void serialEvent(SerialPortEvent event) {
            Runnable r = onData;
            if (r != null) {
                r.run();
            }
        }
    };

    /**
     * A port on device {@code path} (e.g. {@code /dev/ttyUSB0}) at {@code baud}, with a write ring
     * of {@code writeBufferBytes} allocated here, its writer paced on {@code clock} and waiting through
     * {@code sleeper}; nothing is opened until {@link #open}.
     */
    public JSerialCommPort(String path, int baud, int writeBufferBytes, Clock clock, Sleeper sleeper) {
        this.path = path;
        this.baud = baud;
        this.out = new PacedWriter(baud, writeBufferBytes, clock, sleeper);
    }

    /** A port on device {@code path} at {@code baud} with a write ring of {@code writeBufferBytes}, on the system clock. */
    public JSerialCommPort(String path, int baud, int writeBufferBytes) {
        this(path, baud, writeBufferBytes, SystemClock.INSTANCE, SystemClock.INSTANCE);
    }

    /** A port on device {@code path} at {@code baud} with a 16 KiB write ring, on the system clock. */
    public JSerialCommPort(String path, int baud) {
        this(path, baud, 16 * 1024);
    }

    @Override
    public boolean open() {
        close();
        SerialPort p;
        try {
            p = SerialPort.getCommPort(path);
        } catch (RuntimeException notThere) {
            // SerialPortInvalidPortException: the device (or the pty symlink) does not exist now.
            openErrno = ENOENT;
            return false;
        }
        // openPort sets the line's settings itself, on every open: raw 8N1 (no ICANON, ECHO, ISIG,
        // IEXTEN, IXON/IXOFF, ICRNL/INLCR/IGNCR, ISTRIP, OPOST), CLOCAL and CREAD, whatever the previous
        // user of the device (a getty, systemd's reset of a tty when a getty stops) left on it
        // (SerialTermiosTest). Settings changed under a port that stays open are not seen; such a
        // change comes with a hang-up (systemd's TTYVHangup), which fails the port, and the reopen sets
        // them again.
        p.setComPortParameters(baud, 8, SerialPort.ONE_STOP_BIT, SerialPort.NO_PARITY);
        p.setComPortTimeouts(SerialPort.TIMEOUT_NONBLOCKING, 0, 0);
        if (!p.openPort()) {
            // errno of open(2) or of the exclusive flock: EACCES, EBUSY, EWOULDBLOCK, ...
            int errno = p.getLastErrorCode();
            openErrno = errno > 0 ? errno : -1;
            return false;
        }
        openErrno = 0;
        out.reset();
        port = p;
        if (onData != null) {
            p.addDataListener(events);
        }
        PacedWriter.Line line = new NativeLine(p);
        Thread t = new Thread(() -> out.drain(line), "serial-writer " + path);
        t.setDaemon(true);
        writer = t;
        t.start();
        return true;
    }

    /**
     * jSerialComm's port as the writer's line. The writer keeps to the line's pace (8N1: baud/10
     * bytes per second, with a 1 KiB burst). A UART takes bytes at that pace anyway; pacing here keeps
     * the driver's buffer from filling, which is when jSerialComm's native write starts spinning (and
     * on a pty, which ignores baud, it keeps a fast writer from starving the reader of CPU).
     */
    private static final class NativeLine implements PacedWriter.Line {
        private final SerialPort p;

        NativeLine(SerialPort p) {
            this.p = p;
        }

        @Override
        public int writeBytes(byte[] buf, int len, int off) {
            return p.writeBytes(buf, len, off);
        }

        @Override
        public int lastErrorCode() {
            return p.getLastErrorCode();
        }

        @Override
        public int bytesAvailable() {
            return p.bytesAvailable();
        }
    }

    /** Linux's errno for a missing file or device. */
    private static final int ENOENT = 2;

    /**
     * Why the last {@link #open} failed, in a few words with the errno's name (Linux numbers), or
     * null when it did not fail.
     */
    @Override
    public String openFailure() {
        int errno = openErrno;
        return switch (errno) {
            case 0 -> null;
            case ENOENT -> "no such device (ENOENT)";
            case 13 -> "permission denied (EACCES): this user may not open it (see its owner, group and mode)";
            case 16 -> "device busy (EBUSY)";
            case 11 -> "another program holds it (EWOULDBLOCK: its exclusive lock)";
            case 6, 19 -> "no such device or address (ENXIO/ENODEV)";
            case 5 -> "input/output error (EIO)";
            case 25 -> "not a terminal (ENOTTY)";
            case -1 -> "the serial library gave no reason";
            default -> "errno " + errno;
        };
    }

    @Override
    public int read(byte[] buf, int off, int len) {
        SerialPort p = port;
        if (p == null || out.failed()) {
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
        if (port == null || out.failed()) {
            return -1;
        }
        return out.offer(buf, off, len);
    }

    /**
     * Forwards jSerialComm's data-available events (its own event thread, from the next open on and
     * across reopens); reads stay non-blocking.
     */
    @Override
    public boolean setDataListener(Runnable listener) {
        onData = listener;
        SerialPort p = port;
        if (p != null) {
            p.removeDataListener();
            if (listener != null) {
                p.addDataListener(events);
            }
        }
        return true;
    }

    /** Native writes that met a full driver buffer (EAGAIN) and were retried. */
    public long transientRetries() {
        return out.transientRetries();
    }

    /** Bytes accepted by {@link #write} that the writer thread has not handed to the driver yet. */
    public int pendingBytes() {
        return out.pending();
    }

    /** Closes the port after giving the writer up to half a second (by its clock) to hand over what is queued. */
    @Override
    public void close() {
        if (port != null) {
            out.awaitDrained(CLOSE_DRAIN_NANOS);
        }
        SerialPort p = port;
        port = null;
        out.stop();
        if (p != null) {
            p.closePort();
        }
        Thread t = writer;
        writer = null;
        if (t != null && t != Thread.currentThread()) {
            try {
                t.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String describe() {
        return path + "@" + baud;
    }
}
