package io.spectrum.link.serial.pty;

import static io.spectrum.link.serial.pty.PtyLibc.C;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import java.io.IOException;
import java.util.function.Consumer;

/**
 * The null-modem cable between two pseudo-terminals: one thread polls both masters and copies what
 * one side's program writes to the other side, byte for byte. A side whose reader does not keep up
 * holds its direction back (the writer's pty fills); the other direction keeps flowing.
 * {@link #stop()} wakes the poll through a pipe and joins the thread.
 */
final class PtyRelay {
    private static final int BUFFER = 4096;
    private static final long STOP_WAIT_MILLIS = 5_000;

    private final Pty a;
    private final Pty b;
    private final int wakeRead;
    private final int wakeWrite;
    private final Consumer<String> log;
    private final Thread thread;
    private final Direction aToB;
    private final Direction bToA;

    /** One direction's bytes read from {@code from} and not yet written to {@code to}. */
    private static final class Direction {
        final int from;
        final int to;
        final Memory buf = new Memory(BUFFER);
        int off;
        int len;

        Direction(int from, int to) {
            this.from = from;
            this.to = to;
        }

        boolean empty() {
            return off == len;
        }

        /** Reads what {@code from} has; null, or why the relay must stop. */
        String fill() {
            long n = C.read(from, buf, new NativeLong(BUFFER)).longValue();
            if (n > 0) {
                off = 0;
                len = (int) n;
                return null;
            }
            int errno = Native.getLastError();
            if (n < 0 && (errno == PtyLibc.EAGAIN || errno == PtyLibc.EINTR)) {
                return null;
            }
            return n == 0 ? "end of file on pty master " + from : "read from pty master " + from + ": " + C.strerror(errno);
        }

        /** Writes as much of the held bytes as {@code to} takes; null, or why the relay must stop. */
        String drain() {
            long n = C.write(to, buf.share(off), new NativeLong(len - off)).longValue();
            if (n >= 0) {
                off += (int) n;
                return null;
            }
            int errno = Native.getLastError();
            if (errno == PtyLibc.EAGAIN || errno == PtyLibc.EINTR) {
                return null;
            }
            return "write to pty master " + to + ": " + C.strerror(errno);
        }
    }

    PtyRelay(Pty a, Pty b, String name, Consumer<String> log) throws IOException {
        this.a = a;
        this.b = b;
        this.log = log;
        int[] pipe = new int[2];
        Pty.check(C.pipe(pipe), "pipe");
        this.wakeRead = pipe[0];
        this.wakeWrite = pipe[1];
        this.aToB = new Direction(a.master, b.master);
        this.bToA = new Direction(b.master, a.master);
        this.thread = new Thread(this::run, "pty-relay " + name);
        thread.setDaemon(true);
        thread.start();
    }

    boolean isAlive() {
        return thread.isAlive();
    }

    private void run() {
        String why;
        try (Memory fds = new Memory(3L * PtyLibc.POLLFD_BYTES)) {
            why = loop(fds);
        } catch (RuntimeException | Error e) {
            why = "relay failed: " + e;
        }
        log.accept("relay stopped: " + why);
    }

    private String loop(Memory fds) {
        while (true) {
            set(fds, 0, a.master, (short) ((aToB.empty() ? PtyLibc.POLLIN : 0) | (bToA.empty() ? 0 : PtyLibc.POLLOUT)));
            set(fds, 1, b.master, (short) ((bToA.empty() ? PtyLibc.POLLIN : 0) | (aToB.empty() ? 0 : PtyLibc.POLLOUT)));
            set(fds, 2, wakeRead, PtyLibc.POLLIN);
            if (C.poll(fds, new NativeLong(3), -1) < 0) {
                int errno = Native.getLastError();
                if (errno == PtyLibc.EINTR) {
                    continue;
                }
                return "poll: " + C.strerror(errno);
            }
            if (revents(fds, 2) != 0) {
                return "closed";
            }
            String why = serve(revents(fds, 0), aToB, bToA);
            if (why == null) {
                why = serve(revents(fds, 1), bToA, aToB);
            }
            if (why != null) {
                return why;
            }
        }
    }

    /** Acts on one master's poll result: {@code out} is read from it, {@code in} is written to it. */
    private static String serve(short revents, Direction out, Direction in) {
        if ((revents & PtyLibc.POLLNVAL) != 0) {
            return "pty master " + out.from + " is not open";
        }
        if ((revents & PtyLibc.POLLIN) != 0 && out.empty()) {
            String why = out.fill();
            if (why != null) {
                return why;
            }
        } else if ((revents & (PtyLibc.POLLHUP | PtyLibc.POLLERR)) != 0) {
            return "pty master " + out.from + " hung up";
        }
        if ((revents & PtyLibc.POLLOUT) != 0 && !in.empty()) {
            return in.drain();
        }
        return null;
    }

    private static void set(Memory fds, int i, int fd, short events) {
        fds.setInt((long) i * PtyLibc.POLLFD_BYTES, fd);
        fds.setShort((long) i * PtyLibc.POLLFD_BYTES + 4, events);
        fds.setShort((long) i * PtyLibc.POLLFD_BYTES + 6, (short) 0);
    }

    private static short revents(Memory fds, int i) {
        return fds.getShort((long) i * PtyLibc.POLLFD_BYTES + 6);
    }

    /**
     * Stops the thread and closes the pipe. True when the thread ended (the ptys may then be closed);
     * false when it did not within 5 s (its descriptors are then left open rather than reused under it).
     */
    boolean stop() {
        try (Memory one = new Memory(1)) {
            one.setByte(0, (byte) 1);
            C.write(wakeWrite, one, new NativeLong(1));
        }
        try {
            thread.join(STOP_WAIT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            log.accept("relay did not stop within " + STOP_WAIT_MILLIS + " ms; its descriptors stay open");
            return false;
        }
        C.close(wakeRead);
        C.close(wakeWrite);
        return true;
    }
}
