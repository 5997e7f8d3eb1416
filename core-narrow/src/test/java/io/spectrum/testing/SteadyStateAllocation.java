package io.spectrum.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * The one rule every allocation proof uses: after warm-up, across several measured windows of the
 * same work, at least one window allocates exactly 0 bytes and none allocates more than 1 KiB. One
 * object per operation would cost megabytes per window; the tolerance only admits a one-off event
 * (a first-time path's constant resolution, a deoptimisation under a loaded machine).
 */
public final class SteadyStateAllocation {
    public static final long ONE_OFF_LIMIT_BYTES = 1024;
    // fetched once: getThreadMXBean() itself allocates
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private SteadyStateAllocation() {
    }

    /** The calling thread's allocated-bytes counter. */
    public static long allocatedBytes() {
        return THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    public static void assertNone(String what, long operationsPerWindow, long[] windows) {
        System.out.println(what + ": operations per window=" + operationsPerWindow + " allocated bytes="
                + Arrays.toString(windows));
        long min = Long.MAX_VALUE;
        for (long w : windows) {
            min = Math.min(min, w);
            assertTrue(w <= ONE_OFF_LIMIT_BYTES, what + " allocated " + w + " bytes in one window of "
                    + operationsPerWindow + " operations");
        }
        assertEquals(0, min, what + ": no window of " + operationsPerWindow + " operations was allocation-free");
    }
}
