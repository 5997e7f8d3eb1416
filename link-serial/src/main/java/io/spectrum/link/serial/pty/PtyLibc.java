package io.spectrum.link.serial.pty;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import com.sun.jna.Pointer;

/**
 * The libc calls {@link PtyPair} makes, through JNA (Linux; glibc or musl). Loaded on first use only,
 * so the serial link itself never needs JNA: link-serial declares it optional, and the board bundle
 * carries neither JNA nor this package. The constants are Linux's (the same on x86-64 and aarch64).
 */
interface PtyLibc extends Library {
    /**
     * libc, bound on first use of this interface (class initialisation fails where JNA or libc is
     * missing).
     */
    PtyLibc C = Native.load("c", PtyLibc.class);

    /** {@code open} flag: read and write. */
    int O_RDWR = 0x2;
    /**
     * {@code open} flag: the pseudo-terminal does not become this process's controlling terminal.
     */
    int O_NOCTTY = 0x100;
    /** {@code open} / {@code fcntl} flag: reads and writes return at once instead of blocking. */
    int O_NONBLOCK = 0x800;
    /** {@code fcntl} command: read the file status flags. */
    int F_GETFL = 3;
    /** {@code fcntl} command: set the file status flags. */
    int F_SETFL = 4;
    /** {@code tcsetattr} action: apply the terminal attributes now. */
    int TCSANOW = 0;
    /** {@code poll} event: data to read. */
    short POLLIN = 0x1;
    /** {@code poll} event: writing will not block. */
    short POLLOUT = 0x4;
    /** {@code poll} revent: an error on the descriptor. */
    short POLLERR = 0x8;
    /** {@code poll} revent: the other side hung up (every opener of the slave closed). */
    short POLLHUP = 0x10;
    /** {@code poll} revent: the descriptor is not open. */
    short POLLNVAL = 0x20;
    /** errno: the call was interrupted by a signal; retry it. */
    int EINTR = 4;
    /** errno: a non-blocking call found nothing to do now; retry later. */
    int EAGAIN = 11;
    /** glibc's struct termios is 60 bytes on Linux; room to spare for any libc. */
    int TERMIOS_BYTES = 256;
    /** struct pollfd: int fd, short events, short revents. */
    int POLLFD_BYTES = 8;

    int posix_openpt(int flags);

    int grantpt(int fd);

    int unlockpt(int fd);

    int ptsname_r(int fd, byte[] buf, NativeLong len);

    int open(String path, int flags, Object... mode);

    int close(int fd);

    int fcntl(int fd, int cmd, Object... arg);

    int tcgetattr(int fd, Pointer termios);

    int tcsetattr(int fd, int action, Pointer termios);

    void cfmakeraw(Pointer termios);

    int pipe(int[] fds);

    int poll(Pointer fds, NativeLong nfds, int timeoutMillis);

    NativeLong read(int fd, Pointer buf, NativeLong count);

    NativeLong write(int fd, Pointer buf, NativeLong count);

    String strerror(int errno);
}
