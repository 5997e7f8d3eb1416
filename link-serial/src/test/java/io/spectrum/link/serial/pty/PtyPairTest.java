package io.spectrum.link.serial.pty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The pair itself, opened as plain files (no jSerialComm configuring the devices): raw, both ways, hang-up on close. */
// a separate thread: a device that is not raw blocks a plain read (canonical mode waits for a line)
@Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PtyPairTest {
    @TempDir
    Path dir;

    @BeforeEach
    void needLinux() {
        assumeTrue(System.getProperty("os.name", "").startsWith("Linux"), "pseudo-terminal pairs are made on Linux only");
    }

    /** Every byte value 4 times over, so CR, LF, ^C, ^D, ^S/^Q, DEL and 0xFF are all in it. */
    private static byte[] everyByte() {
        byte[] b = new byte[1024];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) i;
        }
        return b;
    }

    private static byte[] readExactly(InputStream in, int n) throws IOException {
        byte[] got = new byte[n];
        int at = 0;
        while (at < n) {
            int r = in.read(got, at, n - at);
            if (r < 0) {
                throw new IOException("end of file after " + at + " of " + n + " bytes");
            }
            at += r;
        }
        return got;
    }

    @Test
    void everyByteValueCrossesUnalteredInBothDirections() throws Exception {
        try (PtyPair p = new PtyPair(dir, "x");
             FileOutputStream toBoard = new FileOutputStream(p.hostEnd().toFile());
             FileInputStream atBoard = new FileInputStream(p.boardEnd().toFile());
             FileOutputStream toHost = new FileOutputStream(p.boardEnd().toFile());
             FileInputStream atHost = new FileInputStream(p.hostEnd().toFile())) {
            assertTrue(Files.readSymbolicLink(p.hostEnd()).toString().startsWith("/dev/pts/"));
            assertTrue(Files.readSymbolicLink(p.boardEnd()).toString().startsWith("/dev/pts/"));
            toBoard.write(everyByte());
            assertArrayEquals(everyByte(), readExactly(atBoard, 1024), "host -> board");
            toHost.write(everyByte());
            assertArrayEquals(everyByte(), readExactly(atHost, 1024), "board -> host");
            assertTrue(atHost.available() == 0 && atBoard.available() == 0, "no echo, nothing added");
            assertTrue(p.isAlive());
        }
    }

    @Test
    void closingHangsUpAnOpenDeviceAndRemovesTheLinks() throws Exception {
        PtyPair p = new PtyPair(dir.resolve("host"), dir.resolve("board"), dir.resolve("pty.log"));
        try (FileInputStream atBoard = new FileInputStream(p.boardEnd().toFile())) {
            p.close();
            assertFalse(p.isAlive(), "relay stopped");
            assertFalse(Files.exists(p.hostEnd(), LinkOption.NOFOLLOW_LINKS), "host link removed");
            assertFalse(Files.exists(p.boardEnd(), LinkOption.NOFOLLOW_LINKS), "board link removed");
            int r;
            try {
                r = atBoard.read();
            } catch (IOException e) {
                r = -2; // EIO: hung up
            }
            assertTrue(r < 0, "the open device hung up, read gave " + r);
        }
        String log = Files.readString(dir.resolve("pty.log"));
        assertTrue(log.contains("-> /dev/pts/") && log.contains("relay stopped: closed"), log);
        p.close(); // twice is fine
    }
}
