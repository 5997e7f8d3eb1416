package io.spectrum.link.serial;

import io.spectrum.link.serial.pty.PtyPair;

import io.spectrum.testing.Collector;
import io.spectrum.time.SystemClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A port that cannot be opened says why (the board prints it at start: docs/hil.md), and stops saying
 * it once the link has opened the port.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SerialOpenFailureTest {
    @TempDir
    Path dir;

    @Test
    void aMissingDeviceIsNamedAsSuch() {
        JSerialCommPort port = new JSerialCommPort(dir.resolve("no-such-tty").toString(), 115200);
        assertNull(port.openFailure(), "nothing failed before the first open");
        assertFalse(port.open());
        assertEquals("no such device (ENOENT)", port.openFailure());
    }

    @Test
    void aLinkSaysWhyItsPortIsNotOpenUntilItOpensIt() throws Exception {
        assumeTrue(PtyPair.available(), "no pseudo-terminal pairs here: " + PtyPair.unavailableReason());
        Path host = dir.resolve("tty-host");
        Path board = dir.resolve("tty-board");
        SerialLink link = SerialLink.open(1, board.toString(), new SerialLinkConfig().reopenBackoffMillis(10, 20),
                SystemClock.INSTANCE);
        try {
            assertFalse(link.isPortOpen());
            assertEquals("no such device (ENOENT)", link.openFailure());
            assertEquals(20, link.reopenMaxMillis());
            try (PtyPair pair = new PtyPair(host, board, dir.resolve("pty.log"))) {
                Collector c = new Collector();
                long deadline = System.nanoTime() + 10_000_000_000L; // a hang guard, not a timing check
                while (!link.isPortOpen() && System.nanoTime() < deadline) {
                    link.poll(c, 8);
                    Thread.sleep(5);
                }
                assertTrue(link.isPortOpen(), "opened once the device was there");
                assertNull(link.openFailure());
            }
        } finally {
            link.close();
        }
    }
}
