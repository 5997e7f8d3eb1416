package io.spectrum.board.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import io.spectrum.board.BoardFixture;
import io.spectrum.board.decl.BoardFile;
import io.spectrum.board.decl.BoardFileParser;
import io.spectrum.node.api.NodePath;
import io.spectrum.testing.SteadyStateAllocation;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SMBus read path of an {@code i2c} source without hardware: a stand-in kernel checks the bytes
 * {@link Smbus} places in {@code struct i2c_smbus_ioctl_data} and answers as the kernel would, so the
 * decoding (a word low byte first, a block's length) and a failed transfer (its errno) are seen
 * through the vertex, as a host sees them.
 */
class SmbusTest {
    @TempDir
    Path tmp;

    @Test
    void aWordReadPlacesTheIoctlArgumentAsTheKernelDefinesIt() throws Exception {
        Kernel k = new Kernel();
        k.answer = d -> d.setShort(0, (short) 0x1234); // the kernel's __u16 word, in the machine's order
        try (BoardFixture b = board("u16", new I2cRegister(3, 0x48, 0x05, 2, false, 0, false,
                I2cTransfer.SMBUS_WORD, k, 1000))) {
            assertEquals(List.of("open /dev/i2c-3", "funcs", "slave 0x48", "smbus"), k.calls, "opened once, one ioctl a read");
            assertEquals(0x1234, b.raw("/t"));
            // read_write = I2C_SMBUS_READ, command = the register, two bytes of padding, size = I2C_SMBUS_WORD_DATA
            assertArrayEquals(new byte[] {1, 0x05, 0, 0, 3, 0, 0, 0}, k.head);
            assertEquals(Smbus.DATA_AT, k.dataOffset, "the union's pointer is at offset 8 and points at the union");
            k.answer = d -> d.setShort(0, (short) 0xBEEF);
            b.step(1000);
            assertEquals(0xBEEF, b.raw("/t"));
            assertNull(b.node.staleReason(NodePath.of("/t")));
        }
        assertTrue(k.closed, "the descriptor is closed when the board stops");
    }

    @Test
    void aWordIsLittleEndianUnlessTheOrderSaysBig() throws Exception {
        Kernel k = new Kernel();
        // a TMP102 sends its high byte first, so SMBus's word holds it swapped: 0x0019 reads as 0x1900
        k.answer = d -> d.setShort(0, (short) 0x0019);
        try (BoardFixture b = board("i16", new I2cRegister(1, 0x48, 0, 2, true, 4, true, I2cTransfer.SMBUS_WORD, k, 1000))) {
            assertEquals(0x190, b.raw("/t"), "0x1900 >> 4 = 400 (25.0 °C)");
        }
    }

    @Test
    void aByteReadIsOneByteOfData() throws Exception {
        Kernel k = new Kernel();
        k.answer = d -> d.setByte(0, (byte) 0xA5);
        try (BoardFixture b = board("u8", new I2cRegister(1, 0x20, 0x7F, 1, true, 0, false, I2cTransfer.SMBUS_BYTE, k, 1000))) {
            assertEquals(0xA5, b.raw("/t"));
            assertArrayEquals(new byte[] {1, 0x7F, 0, 0, 2, 0, 0, 0}, k.head);
        }
    }

    @Test
    void aBlockReadAsksForItsLengthAndChecksTheLengthReturned() throws Exception {
        Kernel k = new Kernel();
        k.answer = d -> d.write(0, new byte[] {4, 0x11, 0x22, 0x33, 0x44}, 0, 5);
        try (BoardFixture b = board("u32", new I2cRegister(1, 0x50, 0x10, 4, true, 0, false, I2cTransfer.SMBUS_BLOCK, k, 1000))) {
            assertEquals(0x11223344L, b.raw("/t"));
            assertArrayEquals(new byte[] {1, 0x10, 0, 0, 8, 0, 0, 0}, k.head, "size = I2C_SMBUS_I2C_BLOCK_DATA");
            assertEquals(4, k.blockLength, "block[0] is the length asked for");
            k.answer = d -> d.write(0, new byte[] {2, 0x55, 0x66}, 0, 3);
            b.step(1000);
            assertEquals(0x11223344L, b.raw("/t"), "a short block publishes nothing");
            assertEquals("i2c 1/0x50 reg 16: read 2 of 4 bytes", b.node.staleReason(NodePath.of("/t")));
        }
    }

    @Test
    void aTransferTheKernelRefusesMarksTheVertexStaleUntilOneWorks() throws Exception {
        Kernel k = new Kernel();
        k.answer = d -> d.setShort(0, (short) 400);
        try (BoardFixture b = board("u16", new I2cRegister(1, 0x48, 0, 2, false, 0, false, I2cTransfer.SMBUS_WORD, k, 1000))) {
            assertEquals(400, b.raw("/t"));
            k.smbusErrno = 6; // ENXIO: nothing acknowledged the address
            b.step(1000);
            b.step(2000);
            assertEquals(400, b.raw("/t"), "the last value is kept");
            assertEquals("i2c 1/0x48 reg 0: smbus-word: no device answered (ENXIO)", b.node.staleReason(NodePath.of("/t")));
            k.smbusErrno = 0;
            k.answer = d -> d.setShort(0, (short) 416);
            b.step(3000);
            assertEquals(416, b.raw("/t"));
            assertNull(b.node.staleReason(NodePath.of("/t")));
        }
    }

    @Test
    void aSourceThatFailsFromItsFirstReadHasNoValueAndIsStale() throws Exception {
        Kernel k = new Kernel();
        k.smbusErrno = 121;
        try (BoardFixture b = board("u16", new I2cRegister(1, 0x48, 0, 2, false, 0, false, I2cTransfer.SMBUS_WORD, k, 1000))) {
            assertFalse(b.has("/t"));
            assertEquals("i2c 1/0x48 reg 0: smbus-word: the device did not acknowledge (EREMOTEIO)",
                    b.node.staleReason(NodePath.of("/t")));
        }
    }

    @Test
    void aBusOrDeviceThatCannotBeOpenedRefusesTheStartAndLeavesNothingOpen() throws Exception {
        Kernel k = new Kernel();
        k.openErrno = 2;
        IOException e = assertThrows(IOException.class, () -> Smbus.open(k, 9, 0x48, I2cTransfer.SMBUS_WORD));
        assertEquals("cannot open /dev/i2c-9: no such file (ENOENT) (is the bus enabled, and i2c-dev loaded?)", e.getMessage());

        Kernel busy = new Kernel();
        busy.slaveErrno = 16;
        e = assertThrows(IOException.class, () -> Smbus.open(busy, 1, 0x48, I2cTransfer.SMBUS_BYTE));
        assertEquals("cannot select device 0x48 on /dev/i2c-1: the address is in use by a kernel driver (EBUSY)", e.getMessage());
        assertTrue(busy.closed);

        Kernel wordOnly = new Kernel();
        wordOnly.funcs = 0x0020_0000;
        e = assertThrows(IOException.class, () -> Smbus.open(wordOnly, 1, 0x48, I2cTransfer.SMBUS_BLOCK));
        assertEquals("the adapter of /dev/i2c-1 does not do smbus-block", e.getMessage());
        assertTrue(wordOnly.closed);

        Kernel absent = new Kernel();
        absent.openErrno = 2;
        Exception start = assertThrows(Exception.class, () -> board("u16",
                new I2cRegister(4, 0x48, 0, 2, false, 0, false, I2cTransfer.SMBUS_WORD, absent, 1000)).close());
        assertTrue(start.getMessage().contains("cannot open i2c 4/0x48 reg 0: cannot open /dev/i2c-4: no such file (ENOENT)"),
                start.getMessage());
    }

    @Test
    void aWidthTheTransferCannotReadIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> new I2cRegister(1, 0x48, 0, 4, false, 0, false, I2cTransfer.SMBUS_WORD, 1000));
        assertThrows(IllegalArgumentException.class,
                () -> new I2cRegister(1, 0x48, 0, 2, false, 0, false, I2cTransfer.SMBUS_BYTE, 1000));
        assertThrows(IllegalArgumentException.class,
                () -> new I2cRegister(1, 0x48, 0, 9, false, 0, false, I2cTransfer.SMBUS_BLOCK, 1000));
        assertThrows(IllegalArgumentException.class,
                () -> new I2cRegister(1, 0x48, 0, 0, false, 0, false, I2cTransfer.PLAIN, 1000));
    }

    @Test
    void aReadAllocatesNothing() throws Exception {
        // a kernel that answers without allocating, so what is measured is Smbus's own read path
        I2cDev quiet = new I2cDev() {
            @Override
            public int open(String path) {
                return 3;
            }

            @Override
            public int ioctl(int fd, int request, Pointer arg) {
                if (request == Smbus.I2C_FUNCS) {
                    arg.setInt(0, -1);
                } else if (request == Smbus.I2C_SMBUS) {
                    // a word, or block[1..2] after block[0]; the union is where the other tests saw the pointer point
                    arg.setShort(Smbus.DATA_AT + 1, (short) 0x0201);
                }
                return 0;
            }

            @Override
            public void close(int fd) {
            }
        };
        Smbus word = Smbus.open(quiet, 1, 0x48, I2cTransfer.SMBUS_WORD);
        Smbus block = Smbus.open(quiet, 1, 0x50, I2cTransfer.SMBUS_BLOCK);
        byte[] into = new byte[2];
        int ops = 20_000;
        long sum = 0;
        for (int i = 0; i < 3 * ops; i++) { // warm-up: compile the path
            sum += word.read(I2cTransfer.SMBUS_WORD, 0, into, 2) + block.read(I2cTransfer.SMBUS_BLOCK, 0, into, 2);
        }
        long[] windows = new long[5];
        for (int w = 0; w < windows.length; w++) {
            long before = SteadyStateAllocation.allocatedBytes();
            for (int i = 0; i < ops; i++) {
                sum += word.read(I2cTransfer.SMBUS_WORD, 0, into, 2) + block.read(I2cTransfer.SMBUS_BLOCK, 0, into, 2);
            }
            windows[w] = SteadyStateAllocation.allocatedBytes() - before;
        }
        assertEquals(4L * ops * (windows.length + 3), sum, "every read returned its 2 bytes");
        assertArrayEquals(new byte[] {1, 2}, into, "block[1..2] as the kernel left them");
        SteadyStateAllocation.assertNone("Smbus.read (a word and a block)", 2L * ops, windows);
    }

    @Test
    void libcsBindingReportsTheKernelsErrno() throws Exception {
        assumeTrue(Platform.isLinux(), "the binding is Linux's");
        I2cDev libc = LinuxI2cDev.INSTANCE;
        assertEquals(-2, libc.open("/dev/i2c-does-not-exist"), "ENOENT");
        int fd = libc.open("/dev/null");
        assertTrue(fd >= 0, "opened /dev/null: " + fd);
        try (Memory m = new Memory(64)) {
            m.clear();
            assertEquals(-25, libc.ioctl(fd, Smbus.I2C_SMBUS, m), "ENOTTY: /dev/null is no I2C adapter");
            IOException e = assertThrows(IOException.class, () -> Smbus.open(new I2cDev() {
                @Override
                public int open(String path) {
                    return libc.open("/dev/null");
                }

                @Override
                public int ioctl(int f, int request, Pointer arg) {
                    return libc.ioctl(f, request, arg);
                }

                @Override
                public void close(int f) {
                    libc.close(f);
                }
            }, 1, 0x48, I2cTransfer.SMBUS_WORD));
            assertEquals("/dev/i2c-1 is not an I2C adapter: not an I2C adapter (ENOTTY)", e.getMessage());
        } finally {
            libc.close(fd);
        }
    }

    /** A board with one vertex {@code /t} of {@code type}, read by {@code source}. */
    private BoardFixture board(String type, I2cRegister source) throws Exception {
        BoardFile f = new BoardFileParser(-1).parse("test.yaml", "vertices:\n  - {path: /t, type: " + type + "}\n", tmp);
        BoardFile.Vertex v = f.vertices().get(0);
        BoardFile withSource = new BoardFile(f.file(), f.name(), f.platform(), f.pwmChip(), f.mockPins(), f.sys(), f.proc(),
                List.of(new BoardFile.Vertex(v.path(), v.schema(), null, source, null, v.line())), f.apps(), null,
                f.backfill());
        return new BoardFixture(withSource, List.of());
    }

    /** Stands in for the kernel's i2c-dev: answers I2C_FUNCS, I2C_SLAVE and I2C_SMBUS, and keeps what each was given. */
    static final class Kernel implements I2cDev {
        final List<String> calls = new ArrayList<>();
        long funcs = 0x0008_0000 | 0x0020_0000 | 0x0400_0000;
        int openErrno;
        int slaveErrno;
        int smbusErrno;
        Consumer<Pointer> answer = d -> { };
        /** The first 8 bytes of the last I2C_SMBUS argument, and where its data pointer pointed (from the argument). */
        byte[] head;
        long dataOffset = -1;
        int blockLength = -1;
        boolean closed;

        @Override
        public int open(String path) {
            calls.add("open " + path);
            return openErrno != 0 ? -openErrno : 7;
        }

        @Override
        public int ioctl(int fd, int request, Pointer arg) {
            assertEquals(7, fd);
            switch (request) {
                case Smbus.I2C_FUNCS -> {
                    calls.add("funcs");
                    if (Native.LONG_SIZE == 8) {
                        arg.setLong(0, funcs);
                    } else {
                        arg.setInt(0, (int) funcs);
                    }
                    return 0;
                }
                case Smbus.I2C_SLAVE -> {
                    calls.add(String.format("slave 0x%02x", Pointer.nativeValue(arg)));
                    return slaveErrno != 0 ? -slaveErrno : 0;
                }
                case Smbus.I2C_SMBUS -> {
                    calls.add("smbus");
                    head = arg.getByteArray(0, 8);
                    Pointer data = arg.getPointer(Smbus.ARG_DATA);
                    dataOffset = Pointer.nativeValue(data) - Pointer.nativeValue(arg);
                    blockLength = data.getByte(0) & 0xFF;
                    if (smbusErrno != 0) {
                        return -smbusErrno;
                    }
                    answer.accept(data);
                    return 0;
                }
                default -> {
                    return -25;
                }
            }
        }

        @Override
        public void close(int fd) {
            closed = true;
        }
    }
}
