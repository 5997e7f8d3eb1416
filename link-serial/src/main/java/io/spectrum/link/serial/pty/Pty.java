package io.spectrum.link.serial.pty;

import static io.spectrum.link.serial.pty.PtyLibc.C;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import java.io.IOException;

/**
 * One pseudo-terminal opened through libc: a non-blocking master for the relay and the slave device
 * (in raw mode: no echo, no line discipline, 8 bits through unaltered). This process keeps its own
 * descriptor on the slave so the master never reads EIO while no program has the device open (a board
 * being reset); closing the master hangs up every other opener of the slave, as an unplugged adapter.
 */
final class Pty {
    final int master;
    final int slave;
    final String slavePath;

    private Pty(int master, int slave, String slavePath) {
        this.master = master;
        this.slave = slave;
        this.slavePath = slavePath;
    }

    static Pty open() throws IOException {
        int master = check(C.posix_openpt(PtyLibc.O_RDWR | PtyLibc.O_NOCTTY), "posix_openpt");
        int slave = -1;
        try {
            check(C.grantpt(master), "grantpt");
            check(C.unlockpt(master), "unlockpt");
            byte[] name = new byte[256];
            int rc = C.ptsname_r(master, name, new NativeLong(name.length));
            if (rc != 0) {
                throw new IOException("ptsname_r failed: " + C.strerror(rc));
            }
            String path = Native.toString(name);
            int flags = check(C.fcntl(master, PtyLibc.F_GETFL), "fcntl(F_GETFL)");
            check(C.fcntl(master, PtyLibc.F_SETFL, flags | PtyLibc.O_NONBLOCK), "fcntl(F_SETFL)");
            slave = check(C.open(path, PtyLibc.O_RDWR | PtyLibc.O_NOCTTY), "open " + path);
            try (Memory termios = new Memory(PtyLibc.TERMIOS_BYTES)) {
                termios.clear();
                check(C.tcgetattr(slave, termios), "tcgetattr " + path);
                C.cfmakeraw(termios);
                check(C.tcsetattr(slave, PtyLibc.TCSANOW, termios), "tcsetattr " + path);
            }
            return new Pty(master, slave, path);
        } catch (IOException | RuntimeException e) {
            if (slave >= 0) {
                C.close(slave);
            }
            C.close(master);
            throw e;
        }
    }

    /** Closes the master first (hanging up the slave's other openers), then this process's slave. */
    void close() {
        C.close(master);
        C.close(slave);
    }

    /** {@code rc} when it is not negative; otherwise an IOException naming the call and errno. */
    static int check(int rc, String what) throws IOException {
        if (rc < 0) {
            throw new IOException(what + " failed: " + C.strerror(Native.getLastError()));
        }
        return rc;
    }
}
