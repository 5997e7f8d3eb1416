package io.spectrum.hil.scenario;

import io.spectrum.hil.HilContext;
import io.spectrum.hil.HilFailure;
import io.spectrum.client.Reply;
import java.time.Duration;

/** Waiting for a board that may be (re)starting. */
final class Waits {
    private Waits() {
    }

    /** Repeats a READ of {@code path} until the board answers anything, or fails after {@code max}. */
    static Reply firstAnswer(HilContext ctx, String path, Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        Reply last = null;
        while (System.nanoTime() - deadline < 0) {
            last = ctx.client().read(path);
            if (last.answered()) {
                return last;
            }
        }
        throw new HilFailure("board did not answer a READ of " + path + " within " + max.toMillis() + " ms"
                + (last == null ? "" : " (" + last + ")"));
    }
}
