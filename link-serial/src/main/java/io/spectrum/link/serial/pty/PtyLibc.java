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
    PtyLibc C = Native.load("c", PtyLibc.class);

    int O_RDWR = 0x2;
    int O_NOCTTY = 0x100;
    int O_NONBLOCK = 0x800;
    int F_GETFL = 3;
    int F_SETFL = 4;
    int TCSANOW = 0;
    short POLLIN = 0x1;
    short POLLOUT = 0x4;
    short POLLERR = 0x8;
    short POLLHUP = 0x10;
    short POLLNVAL = 0x20;
    int EINTR = 4;
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
