package io.spectrum.hil.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.link.serial.pty.PtyPair;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The emulated target's machinery: pty pair, board process, reset through the pi4j mock line, cleanup. */
class EmulatedBoardTargetTest {
    @Test
    @Timeout(60)
    void resetPulseOnTheMockLineRestartsTheBoardProcessAndCloseCleansUp(@TempDir Path dir) throws Exception {
        BoardProcess fake = new BoardProcess(BoardProcess.sameJvm().java(), System.getProperty("java.class.path"),
                List.of("-Xmx32m"), FakeBoardMain.class.getName());
        EmulatedBoardTarget t = EmulatedBoardTarget.start("machinery", fake, dir, java.time.Duration.ofSeconds(1));
        Process first;
        Process second;
        PtyPair pair = t.pair();
        try {
            assertTrue(Files.exists(pair.boardEnd()) && Files.exists(pair.hostEnd()), "pty links exist");
            assertTrue(Files.readSymbolicLink(pair.hostEnd()).toString().startsWith("/dev/pts/"));
            first = t.boardProcess();
            waitForLines(dir.resolve("starts.txt"), 1);
            assertTrue(first.isAlive(), t.diagnostics());

            t.reset();
            assertFalse(first.isAlive(), "the board is down while the reset holds it (boot time)");
            t.awaitBooted();

            second = t.boardProcess();
            assertNotEquals(first.pid(), second.pid());
            assertFalse(first.isAlive(), "the board before the reset was stopped");
            assertEquals(2, t.starts());
            List<String> pids = waitForLines(dir.resolve("starts.txt"), 2);
            assertEquals(String.valueOf(second.pid()), pids.get(1));
        } finally {
            t.close();
        }
        assertFalse(second.isAlive(), "close stops the board");
        assertFalse(pair.isAlive(), "close stops the pty relay");
        assertFalse(Files.exists(pair.boardEnd(), java.nio.file.LinkOption.NOFOLLOW_LINKS), "close removes the links");
        assertEquals(2, t.starts(), "closing (pi4j shutdown drives the line) is not a reset");
    }

    private static List<String> waitForLines(Path f, int n) throws Exception {
        for (int i = 0; i < 1000; i++) {
            if (Files.exists(f)) {
                List<String> l = Files.readAllLines(f);
                if (l.size() >= n) {
                    return l;
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("board process did not start " + n + " times; " + f);
    }
}
