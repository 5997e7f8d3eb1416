package io.spectrum.board.io;

/**
 * How an {@code i2c} source reads its register (the board file's {@code transfer:} key, docs/board.md
 * "Sources"). {@code plain} writes the register number and reads the bytes back (pi4j's
 * {@code readRegister}); the SMBus transfers go through the kernel's {@code I2C_SMBUS} ioctl, which an
 * adapter that only speaks SMBus (and the kernel's {@code i2c-stub}) answers. The names here are the
 * file's spellings, and the widths the only ones a transfer allows.
 */
public enum I2cTransfer {
    /** Write the register number, then read {@code bytes} bytes (today's default). */
    PLAIN("plain", 0, 0, 0),
    /** SMBus "read byte data": the register is the command, one byte comes back. */
    SMBUS_BYTE("smbus-byte", 1, 2, 0x0008_0000),
    /** SMBus "read word data": two bytes, low byte first on the wire (SMBus's word order). */
    SMBUS_WORD("smbus-word", 2, 3, 0x0020_0000),
    /** SMBus "read I2C block data": {@code bytes} bytes from the register on (the kernel allows 1..32). */
    SMBUS_BLOCK("smbus-block", 0, 8, 0x0400_0000);

    private final String key;
    private final int bytes;
    private final int size;
    private final int func;

    I2cTransfer(String key, int bytes, int size, int func) {
        this.key = key;
        this.bytes = bytes;
        this.size = size;
        this.func = func;
    }

    /** The board file's spelling: {@code plain}, {@code smbus-byte}, {@code smbus-word}, {@code smbus-block}. */
    public String key() {
        return key;
    }

    /** The only number of bytes the transfer reads, or 0 when the file's {@code bytes} says it. */
    public int bytes() {
        return bytes;
    }

    /** The kernel's {@code I2C_SMBUS_*} size of the transfer ({@code i2c_smbus_ioctl_data.size}); 0 for plain. */
    int size() {
        return size;
    }

    /** The adapter's {@code I2C_FUNC_SMBUS_READ_*} bit ({@code I2C_FUNCS}) this transfer needs; 0 for plain. */
    int func() {
        return func;
    }

    /** Every spelling, in the file's order of documentation. */
    public static String[] keys() {
        I2cTransfer[] all = values();
        String[] keys = new String[all.length];
        for (int i = 0; i < all.length; i++) {
            keys[i] = all[i].key;
        }
        return keys;
    }

    /** The transfer spelled {@code key} (one of {@link #keys()}). */
    public static I2cTransfer of(String key) {
        for (I2cTransfer t : values()) {
            if (t.key.equals(key)) {
                return t;
            }
        }
        throw new IllegalArgumentException("not an i2c transfer: " + key);
    }
}
