package io.spectrum.board.io;

import com.sun.jna.Native;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;

/**
 * {@link I2cDev} through libc, bound by JNA's direct mapping ({@code Native.register}) when first
 * used, so a read costs no proxy, no argument array and no allocation: the ioctl's argument is a
 * {@link Pointer} to memory made once, passed as its address. {@code ioctl}'s request is a C
 * {@code unsigned long}, 8 bytes on 64-bit Linux (aarch64, x86-64) and 4 on 32-bit ARM (armhf), so
 * the call is bound with a Java {@code long} or {@code int} to match ({@link Native#LONG_SIZE});
 * only the binding of this machine's width is ever loaded. errno is read with
 * {@link Native#getLastError()}, which JNA keeps per thread after each call.
 */
final class LinuxI2cDev implements I2cDev {
    /** The one instance (it holds nothing). */
    static final LinuxI2cDev INSTANCE = new LinuxI2cDev();
    /** {@code open} flags: read and write, and not inherited by a command a source runs. Linux's on arm, arm64, x86-64. */
    private static final int O_RDWR_CLOEXEC = 2 | 0x8_0000;
    private static final boolean LONG_64 = Native.LONG_SIZE == 8;

    private LinuxI2cDev() {
    }

    @Override
    public int open(String path) {
        int fd = Libc.open(path, O_RDWR_CLOEXEC);
        return fd >= 0 ? fd : -Native.getLastError();
    }

    @Override
    public int ioctl(int fd, int request, Pointer arg) {
        int r = LONG_64 ? Lp64.ioctl(fd, request, arg) : Ilp32.ioctl(fd, request, arg);
        return r >= 0 ? r : -Native.getLastError();
    }

    @Override
    public void close(int fd) {
        Libc.close(fd);
    }

    /** {@code open} and {@code close}, the same on every width. */
    private static final class Libc {
        static {
            Native.register(Libc.class, Platform.C_LIBRARY_NAME);
        }

        private Libc() {
        }

        static native int open(String path, int flags);

        static native int close(int fd);
    }

    /** {@code ioctl} where {@code unsigned long} is 8 bytes. */
    private static final class Lp64 {
        static {
            Native.register(Lp64.class, Platform.C_LIBRARY_NAME);
        }

        private Lp64() {
        }

        static native int ioctl(int fd, long request, Pointer arg);
    }

    /** {@code ioctl} where {@code unsigned long} is 4 bytes (32-bit ARM). */
    private static final class Ilp32 {
        static {
            Native.register(Ilp32.class, Platform.C_LIBRARY_NAME);
        }

        private Ilp32() {
        }

        static native int ioctl(int fd, int request, Pointer arg);
    }
}
