package io.spectrum.board.io;

import com.pi4j.io.i2c.I2C;
import com.pi4j.plugin.mock.provider.i2c.MockI2CProvider;
import io.spectrum.board.app.AppVertex;
import io.spectrum.board.app.BoardContext;
import io.spectrum.wire.WireError;

import java.io.IOException;

/**
 * N bytes read from a register of an I2C device every period, assembled in the given byte order,
 * shifted right (a TMP102's 12-bit reading is the top of its 16), sign-extended when signed and
 * published as the raw value; the vertex's declaration turns raw into its unit (scale, offset).
 *
 * <p>The {@link I2cTransfer} says how the bytes are read: {@code plain} through pi4j (write the
 * register, read the bytes), an SMBus transfer through the kernel's {@code I2C_SMBUS} ioctl
 * ({@link Smbus}) on the board's own descriptor of {@code /dev/i2c-N}. On pi4j's mock platform every
 * transfer reads the mock register (the mock does not tell transfers apart), with the bytes as they
 * come on the wire: a word low byte first. A failed SMBus transfer (its errno) is a failed read, as
 * a short plain read is: the vertex is marked stale with the reason ({@link Polled}).
 */
public final class I2cRegister extends Polled {
    private final int bus;
    private final int address;
    private final int register;
    private final int bytes;
    private final boolean bigEndian;
    private final int shift;
    private final boolean signed;
    private final I2cTransfer transfer;
    /** The kernel for SMBus transfers; null: libc's, unless the board is on pi4j's mock platform. */
    private final I2cDev dev;
    private final byte[] buf;
    private I2C i2c;
    private Smbus smbus;

    /**
     * Reads {@code bytes} bytes of {@code register} of the device at {@code address} on I2C {@code bus}, big-endian
     * or little-endian, shifted right by {@code shift}, sign-extended when {@code signed}, every {@code periodMillis}
     * (0 or less: only at start).
     */
    public I2cRegister(int bus, int address, int register, int bytes, boolean bigEndian, int shift, boolean signed,
                       long periodMillis) {
        this(bus, address, register, bytes, bigEndian, shift, signed, I2cTransfer.PLAIN, periodMillis);
    }

    /**
     * As {@link #I2cRegister(int, int, int, int, boolean, int, boolean, long)}, read by {@code transfer}: an SMBus
     * transfer's command is {@code register}, and {@code bytes} must be the transfer's own ({@link I2cTransfer#bytes()}),
     * else 1..8 (the value is one number; an SMBus block could carry 32). The board file's parser has checked that; a
     * wrong combination here is an {@link IllegalArgumentException}.
     */
    public I2cRegister(int bus, int address, int register, int bytes, boolean bigEndian, int shift, boolean signed,
                       I2cTransfer transfer, long periodMillis) {
        this(bus, address, register, bytes, bigEndian, shift, signed, transfer, null, periodMillis);
    }

    /** With {@code dev} standing in for the kernel's SMBus calls (a test's); null: libc's, or the mock platform's. */
    I2cRegister(int bus, int address, int register, int bytes, boolean bigEndian, int shift, boolean signed,
                I2cTransfer transfer, I2cDev dev, long periodMillis) {
        super(periodMillis);
        if (transfer.bytes() != 0 && bytes != transfer.bytes() || bytes < 1 || bytes > Long.BYTES) {
            throw new IllegalArgumentException(transfer.key() + " cannot read " + bytes + " bytes");
        }
        this.transfer = transfer;
        this.dev = dev;
        this.bus = bus;
        this.address = address;
        this.register = register;
        this.bytes = bytes;
        this.bigEndian = bigEndian;
        this.shift = shift;
        this.signed = signed;
        this.buf = new byte[bytes];
    }

    @Override
    void prepare(BoardContext board, AppVertex vertex) throws IOException {
        if (transfer != I2cTransfer.PLAIN && (dev != null || !board.pi4j().hasProvider(MockI2CProvider.class))) {
            smbus = Smbus.open(dev != null ? dev : LinuxI2cDev.INSTANCE, bus, address, transfer);
            return;
        }
        i2c = board.pi4j().create(I2C.newConfigBuilder(board.pi4j()).id("spectrum-i2c-" + bus + "-" + address + "-" + register)
                .name(vertex.path().toString()).bus(bus).device(address).build());
    }

    @Override
    void sample(AppVertex vertex) throws IOException {
        int n = smbus != null ? smbus.read(transfer, register, buf, bytes) : i2c.readRegister(register, buf, 0, bytes);
        if (n != bytes) {
            throw new IOException("read " + Math.max(n, 0) + " of " + bytes + " bytes");
        }
        long raw = assemble(buf, bytes, bigEndian, shift, signed);
        int status = vertex.publish(raw);
        if (status != WireError.OK) { // the reason's text only when there is one: a good read allocates nothing here
            published(status, vertex, "raw " + raw);
        }
    }

    /** The raw value of {@code n} bytes: byte order, then the right shift, then the sign of the bits left. */
    static long assemble(byte[] b, int n, boolean bigEndian, int shift, boolean signed) {
        long v = 0;
        for (int i = 0; i < n; i++) {
            int at = bigEndian ? i : n - 1 - i;
            v = (v << 8) | (b[at] & 0xFF);
        }
        v >>>= shift;
        int bits = 8 * n - shift;
        if (signed && bits < 64) {
            v = (v << (64 - bits)) >> (64 - bits);
        }
        return v;
    }

    @Override
    public void close() {
        if (smbus != null) {
            smbus.close();
            smbus = null;
        }
    }

    @Override
    public String describe() {
        return String.format("i2c %d/0x%02x reg %d", bus, address, register);
    }
}
