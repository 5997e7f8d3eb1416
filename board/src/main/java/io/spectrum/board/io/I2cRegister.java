package io.spectrum.board.io;

import com.pi4j.io.i2c.I2C;
import io.spectrum.board.app.AppVertex;
import io.spectrum.board.app.BoardContext;

import java.io.IOException;

/**
 * N bytes read from a register of an I2C device every period, assembled in the given byte order,
 * shifted right (a TMP102's 12-bit reading is the top of its 16), sign-extended when signed and
 * published as the raw value; the vertex's declaration turns raw into its unit (scale, offset).
 */
public final class I2cRegister extends Polled {
    private final int bus;
    private final int address;
    private final int register;
    private final int bytes;
    private final boolean bigEndian;
    private final int shift;
    private final boolean signed;
    private final byte[] buf;
    private I2C i2c;

    /**
     * Reads {@code bytes} bytes of {@code register} of the device at {@code address} on I2C {@code bus}, big-endian
     * or little-endian, shifted right by {@code shift}, sign-extended when {@code signed}, every {@code periodMillis}
     * (0 or less: only at start).
     */
    public I2cRegister(int bus, int address, int register, int bytes, boolean bigEndian, int shift, boolean signed,
                       long periodMillis) {
        super(periodMillis);
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
    void prepare(BoardContext board, AppVertex vertex) {
        i2c = board.pi4j().create(I2C.newConfigBuilder(board.pi4j()).id("spectrum-i2c-" + bus + "-" + address + "-" + register)
                .name(vertex.path().toString()).bus(bus).device(address).build());
    }

    @Override
    void sample(AppVertex vertex) throws IOException {
        int n = i2c.readRegister(register, buf, 0, bytes);
        if (n != bytes) {
            throw new IOException("read " + Math.max(n, 0) + " of " + bytes + " bytes");
        }
        long raw = assemble(buf, bytes, bigEndian, shift, signed);
        published(vertex.publish(raw), vertex, "raw " + raw);
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
    public String describe() {
        return String.format("i2c %d/0x%02x reg %d", bus, address, register);
    }
}
