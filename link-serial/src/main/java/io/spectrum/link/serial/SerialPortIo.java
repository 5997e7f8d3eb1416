package io.spectrum.link.serial;

/**
 * The byte pipe under a {@link SerialLink}: a real UART through jSerialComm ({@link JSerialCommPort})
 * or an in-memory pipe in tests ({@link InMemorySerialPort}). Reads never block; writes may block
 * briefly (the line's own pace). A negative return means the port is gone (unplugged, pty closed):
 * the link closes it and reopens it later.
 */
public interface SerialPortIo {
    /** Opens (or reopens) the port; false when it is not there now. */
    boolean open();

    /** Reads what is available, up to {@code len}; 0 when nothing is waiting, -1 when the port failed. */
    int read(byte[] buf, int off, int len);

    /** Writes up to {@code len} bytes; bytes written (0 = no room now), -1 when the port failed. */
    int write(byte[] buf, int off, int len);

    /**
     * Closes the port if it is open (an implementation may first wait briefly for queued bytes to go
     * out); closing a closed port does nothing. The link reopens it with {@link #open}.
     */
    void close();

    /**
     * Runs {@code onData} (on the port's own thread) whenever bytes arrive, for as long as the port
     * is open, across reopens. Reads stay non-blocking; the listener only says "read now".
     *
     * @return false when this port cannot signal arrivals (its reader must poll)
     */
    default boolean setDataListener(Runnable onData) {
        return false;
    }

    /**
     * Why the last {@link #open} failed, in words ("permission denied (EACCES) ..."), or null when it
     * did not fail or this port cannot tell.
     */
    default String openFailure() {
        return null;
    }

    /** "/dev/ttyUSB0@115200" for names and logs. */
    String describe();
}
