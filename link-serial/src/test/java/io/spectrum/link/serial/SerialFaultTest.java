package io.spectrum.link.serial;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.testing.Frames;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bit flips, dropped and inserted bytes between two SerialLinks: every damaged frame is dropped and
 * counted, no damaged frame is delivered, and the link is back in step by the next frame.
 */
class SerialFaultTest {
    static int sizeOf(long counter) {
        return 16 + (int) (counter % 185);
    }

    /** Checks every delivered frame byte for byte against what was sent under its counter. */
    static final class Checker implements FrameHandler {
        final boolean[] delivered;
        int mismatched;
        int frames;

        Checker(int n) {
            delivered = new boolean[n + 1];
        }

        @Override
        public void onFrame(Link link, int peer, byte[] buf, int off, int len) {
            long c = Frames.counter(buf, off);
            if (c < 1 || c >= delivered.length
                    || !Arrays.equals(Frames.value(c, sizeOf(c)), Arrays.copyOfRange(buf, off, off + len))) {
                mismatched++;
                return;
            }
            delivered[(int) c] = true;
            frames++;
        }
    }

    @Test
    void damagedFramesAreDroppedAndCountedAndNeverDelivered() {
        int n = 4000;
        InMemorySerialPort[] left = InMemorySerialPort.pair("left", 1 << 16);
        InMemorySerialPort[] right = InMemorySerialPort.pair("right", 1 << 17);
        left[1].open();
        right[0].open();
        SerialLinkConfig cfg = new SerialLinkConfig().maxFrame(512);
        SerialLink sender = new SerialLink(1, left[0], cfg, SystemClock.INSTANCE);
        SerialLink receiver = new SerialLink(2, right[1], cfg, SystemClock.INSTANCE);
        Checker checker = new Checker(n);
        sender.poll(checker, 1);
        receiver.poll(checker, 1);
        // Frame 0 of the relayed stream is the sender's opening delimiter; frame k is counter k.
        NoisyRelay relay = new NoisyRelay(left[1], right[0], 1234L, 1500, n);
        for (int k = 1; k <= n; k++) {
            byte[] f = Frames.value(k, sizeOf(k));
            assertEquals(WireError.OK, sender.send(0, f, 0, f.length));
            relay.pump();
            receiver.poll(checker, 64);
        }
        while (relay.pump() > 0 || !relay.idle()) {
            receiver.poll(checker, 64);
        }
        receiver.poll(checker, 1 << 20);

        int damaged = 0;
        int cleanAfterClean = 0;
        int lostClean = 0;
        int deliveredDamaged = 0;
        for (int k = 1; k <= n; k++) {
            if (relay.damaged[k]) {
                damaged++;
                if (checker.delivered[k]) {
                    deliveredDamaged++;
                }
            } else if (!relay.damaged[k - 1]) {
                cleanAfterClean++;
                if (!checker.delivered[k]) {
                    lostClean++;
                }
            }
        }
        long drops = receiver.stats().droppedCorrupt() + receiver.stats().droppedOversize()
                + receiver.stats().droppedInvalid();
        System.out.printf("serial fault relay: frames=%d damaged=%d (flips=%d drops=%d inserts=%d) delivered=%d"
                        + " droppedCorrupt=%d droppedOversize=%d droppedInvalid=%d%n",
                n, damaged, relay.flips, relay.drops, relay.inserts, checker.frames,
                receiver.stats().droppedCorrupt(), receiver.stats().droppedOversize(), receiver.stats().droppedInvalid());
        assertTrue(damaged > 50, "the relay damaged enough frames to mean something: " + damaged);
        assertEquals(0, checker.mismatched, "a delivered frame differs from what was sent");
        assertEquals(0, deliveredDamaged, "a damaged frame was delivered");
        assertEquals(0, lostClean, "a clean frame after a clean frame was lost: no resync within one frame");
        assertEquals(n - damaged, checker.frames + countLostAfterDamage(relay, checker, n));
        assertTrue(drops >= damaged / 2, "drops are counted: " + drops);
        assertTrue(cleanAfterClean > n / 2);
    }

    /** Clean frames lost because the frame before them lost its delimiter (merged into it). */
    private static int countLostAfterDamage(NoisyRelay relay, Checker checker, int n) {
        int lost = 0;
        for (int k = 1; k <= n; k++) {
            if (!relay.damaged[k] && relay.damaged[k - 1] && !checker.delivered[k]) {
                lost++;
            }
        }
        return lost;
    }
}
