package io.spectrum.board.io;

import com.sun.jna.Pointer;

/**
 * The kernel calls an SMBus read makes on an I2C adapter's character device ({@code /dev/i2c-N}):
 * {@link LinuxI2cDev} makes them through libc; a test stands in for the kernel and sees the bytes
 * {@link Smbus} placed in memory. Failures are returned as {@code -errno}, never thrown, so the
 * read path stays free of allocation.
 */
interface I2cDev {
    /** Opens {@code path} for reading and writing: the descriptor, or {@code -errno}. */
    int open(String path);

    /** {@code ioctl(fd, request, arg)}: its result (0 or more), or {@code -errno}. */
    int ioctl(int fd, int request, Pointer arg);

    /** Closes {@code fd}. */
    void close(int fd);
}
