package io.spectrum.hil.scenario;

import io.spectrum.hil.Check;
import io.spectrum.hil.HilContext;
import io.spectrum.hil.HilSkip;
import io.spectrum.hil.Scenario;
import io.spectrum.client.PeerClient;
import io.spectrum.hil.oracle.Tlv;
import io.spectrum.client.Reply;
import io.spectrum.hil.oracle.Wire;

/** A reset through the reset line restarts the board, and it serves again on the same host link. */
public final class ResetRecoveryScenario implements Scenario {
    @Override
    public String name() {
        return "board-reset-serves-again";
    }

    @Override
    public String checks() {
        return "pulsing the reset line restarts the board (a value written before the reset is gone and the "
                + "edges admitted before it are evicted), and the board answers again on the same host link";
    }

    @Override
    public void run(HilContext ctx) throws Exception {
        if (!ctx.target().canReset()) {
            throw new HilSkip("target has no reset line");
        }
        PeerClient c = ctx.client();
        String route = ctx.route(name());
        Check.result(c.write(DemoBoard.LED, Wire.value(1, 1)), "write a marker value before the reset");
        Check.result(c.subscribe(DemoBoard.LED, route, -1, false).reply(), "subscribe before the reset");
        long t0 = System.nanoTime();
        ctx.target().reset();
        Reply r = Waits.firstAnswer(ctx, DemoBoard.CAPS, ctx.timeout().multipliedBy(6));
        long ms = (System.nanoTime() - t0) / 1_000_000L;
        Check.result(r, "read after reset");
        Reply led = c.read(DemoBoard.LED);
        Check.that(led.isError() || led.value() == null || Tlv.decode(led.value()).asLong() != 0x77,
                "the marker written before the reset must be gone after a restart, got " + led);
        Check.equal(-1, Subscribers.slotOf(c, DemoBoard.LED, route), "slot of a subscription made before the reset");
        ctx.note("back after " + ms + " ms");
    }
}
