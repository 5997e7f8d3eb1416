package io.spectrum.board.io;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

import java.io.IOException;

/**
 * One device on a Linux I2C adapter, read by SMBus transfers through {@code /dev/i2c-N}: opened once
 * (the device selected with {@code I2C_SLAVE}, the adapter asked with {@code I2C_FUNCS} whether it
 * does the transfer), then each read is one {@code I2C_SMBUS} ioctl. The numbers below are the
 * kernel's ({@code linux/i2c.h}, {@code linux/i2c-dev.h}).
 *
 * <p>The ioctl's argument is {@code struct i2c_smbus_ioctl_data { __u8 read_write; __u8 command;
 * __u32 size; union i2c_smbus_data *data; }}: the u32 is aligned to 4, so it ends at 8, and the
 * pointer starts at 8 on 64-bit (8-byte pointer, 8-aligned) and on 32-bit ARM (4-byte pointer,
 * 4-aligned) alike. {@code union i2c_smbus_data} is 34 bytes: the byte, the word (in the machine's
 * order), or a block whose {@code block[0]} is its length. Both live in one native block made when
 * the source opens and written in place for each read, so a read allocates nothing.
 */
final class Smbus {
    /** ioctl: the device address later transfers on this descriptor go to. */
    static final int I2C_SLAVE = 0x0703;
    /** ioctl: the adapter's functionality bits, into an {@code unsigned long}. */
    static final int I2C_FUNCS = 0x0705;
    /** ioctl: one SMBus transfer ({@code struct i2c_smbus_ioctl_data}). */
    static final int I2C_SMBUS = 0x0720;
    /** {@code i2c_smbus_ioctl_data.read_write} of a read. */
    static final int I2C_SMBUS_READ = 1;
    /** The largest block an SMBus block transfer carries. */
    static final int BLOCK_MAX = 32;
    /** Offsets in {@code i2c_smbus_ioctl_data}. */
    static final int ARG_READ_WRITE = 0;
    static final int ARG_COMMAND = 1;
    static final int ARG_SIZE = 4;
    static final int ARG_DATA = 8;
    /** Where the union and the functionality word are in the native block (after the 16-byte argument). */
    static final int DATA_AT = 16;
    static final int DATA_BYTES = BLOCK_MAX + 2;
    private static final int FUNCS_AT = 56;
    private static final int BLOCK_BYTES = 64;

    private final I2cDev dev;
    private final int fd;
    private final String device;
    private final Memory block;
    private final Pointer data;
    private final Pointer funcs;

    private Smbus(I2cDev dev, int fd, String device) {
        this.dev = dev;
        this.fd = fd;
        this.device = device;
        this.block = new Memory(BLOCK_BYTES);
        this.data = block.share(DATA_AT, DATA_BYTES);
        this.funcs = block.share(FUNCS_AT, 8);
        block.clear();
    }

    /**
     * Opens {@code /dev/i2c-<bus>}, selects the device at {@code address} and checks the adapter does
     * {@code transfer}; throws, with the reason, when any of it fails (nothing is left open then).
     */
    static Smbus open(I2cDev dev, int bus, int address, I2cTransfer transfer) throws IOException {
        if (transfer == I2cTransfer.PLAIN) {
            throw new IllegalArgumentException("plain is not an SMBus transfer");
        }
        String device = "/dev/i2c-" + bus;
        int fd = dev.open(device);
        if (fd < 0) {
            throw new IOException("cannot open " + device + ": " + errno(-fd)
                    + (-fd == 2 ? " (is the bus enabled, and i2c-dev loaded?)" : ""));
        }
        Smbus s = new Smbus(dev, fd, device);
        try {
            int r = dev.ioctl(fd, I2C_FUNCS, s.funcs);
            if (r < 0) {
                throw new IOException(device + " is not an I2C adapter: " + errno(-r));
            }
            long f = Native.LONG_SIZE == 8 ? s.funcs.getLong(0) : s.funcs.getInt(0) & 0xFFFF_FFFFL;
            if ((f & transfer.func()) == 0) {
                throw new IOException("the adapter of " + device + " does not do " + transfer.key());
            }
            r = dev.ioctl(fd, I2C_SLAVE, new Pointer(address));
            if (r < 0) {
                throw new IOException(String.format("cannot select device 0x%02x on %s: %s", address, device, errno(-r)));
            }
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
        return s;
    }

    /**
     * One {@code transfer} read of {@code command} into {@code into[0..n)}, in the order the bytes
     * come on the wire (a word low byte first). Returns the number of bytes read ({@code n}, or a
     * block's shorter length); throws with the errno's reason when the kernel refuses the transfer.
     */
    int read(I2cTransfer transfer, int command, byte[] into, int n) throws IOException {
        block.setByte(ARG_READ_WRITE, (byte) I2C_SMBUS_READ);
        block.setByte(ARG_COMMAND, (byte) command);
        block.setShort(2, (short) 0);
        block.setInt(ARG_SIZE, transfer.size());
        block.setPointer(ARG_DATA, data);
        data.setShort(0, (short) 0);
        if (transfer == I2cTransfer.SMBUS_BLOCK) {
            data.setByte(0, (byte) n); // the length asked for; the kernel leaves the length read there
        }
        int r = dev.ioctl(fd, I2C_SMBUS, block);
        if (r < 0) {
            throw new IOException(transfer.key() + ": " + errno(-r));
        }
        switch (transfer) {
            case SMBUS_BYTE -> into[0] = data.getByte(0);
            case SMBUS_WORD -> {
                int w = data.getShort(0) & 0xFFFF;
                into[0] = (byte) w;
                into[1] = (byte) (w >>> 8);
            }
            default -> {
                int got = data.getByte(0) & 0xFF;
                if (got != n) {
                    return got; // the caller says "read got of n bytes"
                }
                data.read(1, into, 0, n);
            }
        }
        return n;
    }

    /** Closes the descriptor; the source calls it once, when the board stops. */
    void close() {
        dev.close(fd);
    }

    /** The device file, {@code /dev/i2c-N}. */
    String device() {
        return device;
    }

    /** The native block (the ioctl's argument at 0, the union at {@link #DATA_AT}), for tests. */
    Pointer block() {
        return block;
    }

    /** What an errno from an I2C adapter means, with its name: {@code no device answered (ENXIO)}. */
    static String errno(int e) {
        return switch (e) {
            case 1 -> "not permitted (EPERM)";
            case 2 -> "no such file (ENOENT)";
            case 5 -> "I/O error (EIO)";
            case 6 -> "no device answered (ENXIO)";
            case 11 -> "the bus is busy (EAGAIN)";
            case 13 -> "permission denied (EACCES)";
            case 16 -> "the address is in use by a kernel driver (EBUSY)";
            case 19 -> "no such device (ENODEV)";
            case 22 -> "invalid argument (EINVAL)";
            case 25 -> "not an I2C adapter (ENOTTY)";
            case 71 -> "protocol error (EPROTO)";
            case 38 -> "the kernel does not know this call (ENOSYS)";
            case 74 -> "bad message (EBADMSG)";
            case 95 -> "the adapter does not do this transfer (EOPNOTSUPP)";
            case 110 -> "timed out (ETIMEDOUT)";
            case 121 -> "the device did not acknowledge (EREMOTEIO)";
            default -> "errno " + e;
        };
    }
}
