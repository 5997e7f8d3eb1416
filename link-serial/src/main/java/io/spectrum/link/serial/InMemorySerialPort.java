package io.spectrum.link.serial;

/**
 * One end of an in-memory serial line: two bounded byte rings, one per direction. For tests, demos
 * and benchmarks that need a serial line without a pty. {@link #unplug()} makes the end behave like
 * a removed USB adapter (reads and writes fail, open fails, bytes in flight are lost) until
 * {@link #plug()}. Thread-safe; allocation-free after construction.
 */
public final class InMemorySerialPort implements SerialPortIo {
    /** A bounded single-direction byte ring. */
    static final class Ring {
        private final byte[] data;
        private int head;
        private int count;
        /** Told after bytes were put (the reading end's data listener), outside the lock. */
        volatile Runnable onData;

        Ring(int capacity) {
            data = new byte[capacity];
        }

        int put(byte[] src, int off, int len) {
            int n = putLocked(src, off, len);
            Runnable r = onData;
            if (n > 0 && r != null) {
                r.run();
            }
            return n;
        }

        private synchronized int putLocked(byte[] src, int off, int len) {
            int n = Math.min(len, data.length - count);
            int tail = (head + count) % data.length;
            for (int i = 0; i < n; i++) {
                data[tail] = src[off + i];
                tail = tail + 1 == data.length ? 0 : tail + 1;
            }
            count += n;
            return n;
        }

        synchronized int take(byte[] dst, int off, int len) {
            int n = Math.min(len, count);
            for (int i = 0; i < n; i++) {
                dst[off + i] = data[head];
                head = head + 1 == data.length ? 0 : head + 1;
            }
            count -= n;
            return n;
        }

        synchronized void clear() {
            head = 0;
            count = 0;
        }

        synchronized int size() {
            return count;
        }
    }

    private final String name;
    private final Ring in;
    private final Ring out;
    private volatile boolean plugged = true;
    private volatile boolean open;
    private volatile long opens;

    private InMemorySerialPort(String name, Ring in, Ring out) {
        this.name = name;
        this.in = in;
        this.out = out;
    }

    /** Two connected ends; each direction buffers {@code capacity} bytes. */
    public static InMemorySerialPort[] pair(String name, int capacity) {
        Ring ab = new Ring(capacity);
        Ring ba = new Ring(capacity);
        return new InMemorySerialPort[] {
            new InMemorySerialPort(name + "/a", ba, ab),
            new InMemorySerialPort(name + "/b", ab, ba),
        };
    }

    @Override
    public boolean open() {
        if (!plugged) {
            return false;
        }
        open = true;
        opens++;
        return true;
    }

    @Override
    public int read(byte[] buf, int off, int len) {
        if (!plugged || !open) {
            return -1;
        }
        return in.take(buf, off, len);
    }

    @Override
    public int write(byte[] buf, int off, int len) {
        if (!plugged || !open) {
            return -1;
        }
        return out.put(buf, off, len);
    }

    @Override
    public void close() {
        open = false;
    }

    /** Runs {@code onData} on the writing thread whenever the other end puts bytes here. */
    @Override
    public boolean setDataListener(Runnable onData) {
        in.onData = onData;
        return true;
    }

    @Override
    public String describe() {
        return "mem:" + name;
    }

    /** The adapter is pulled: this end fails until {@link #plug()}; bytes in flight are lost. */
    public void unplug() {
        plugged = false;
        in.clear();
        out.clear();
    }

    /** The adapter is back: {@code open} succeeds again (bytes lost while unplugged stay lost). */
    public void plug() {
        plugged = true;
    }

    /** True when this end is open and the adapter is plugged in. */
    public boolean isOpen() {
        return open && plugged;
    }

    /** Successful opens so far (the first open plus every reopen). */
    public long opens() {
        return opens;
    }

    /** Bytes waiting to be read at this end. */
    public int available() {
        return in.size();
    }
}
