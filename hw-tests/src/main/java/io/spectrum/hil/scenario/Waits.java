package io.spectrum.hil.scenario;

import io.spectrum.hil.HilContext;
import io.spectrum.hil.HilFailure;
import io.spectrum.hil.client.Reply;
import io.spectrum.hil.client.WireException;
import java.time.Duration;

/** Waiting for a board that may be (re)starting. */
final class Waits {
    private Waits() {
    }

    /** Repeats a READ of {@code path} until the board answers anything, or fails after {@code max}. */
    static Reply firstAnswer(HilContext ctx, String path, Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        WireException last = null;
        while (System.nanoTime() - deadline < 0) {
            try {
                return ctx.client().read(path);
            } catch (WireException e) {
                last = e;
            }
        }
        throw new HilFailure("board did not answer a READ of " + path + " within " + max.toMillis() + " ms"
                + (last == null ? "" : " (" + last.getMessage() + ")"));
    }
}
