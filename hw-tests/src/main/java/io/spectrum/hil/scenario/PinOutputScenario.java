package io.spectrum.hil.scenario;

import io.spectrum.client.PeerClient;
import io.spectrum.hil.Check;
import io.spectrum.hil.HilContext;
import io.spectrum.hil.HilFailure;
import io.spectrum.hil.HilSkip;
import io.spectrum.hil.Scenario;
import io.spectrum.hil.oracle.Tlv;
import io.spectrum.hil.oracle.Wire;
import io.spectrum.wire.WireError;

/** A host's write of a declared output vertex drives the pin, and the pin's state is read back. */
public final class PinOutputScenario implements Scenario {
    @Override
    public String name() {
        return "declared-output-drives-pin";
    }

    @Override
    public String checks() {
        return "writing " + DemoBoard.RELAY + " = 1 then 0 from the host drives BCM " + DemoBoard.RELAY_PIN
                + " high then low, " + DemoBoard.RELAY_STATE + " reads the pin back, and a write outside 0..1 "
                + "is refused and leaves the pin alone";
    }

    @Override
    public void run(HilContext ctx) throws Exception {
        if (!ctx.target().canDrivePins()) {
            throw new HilSkip("target cannot read the board's pins");
        }
        PeerClient c = ctx.client();
        StringBuilder latency = new StringBuilder();
        for (int level : new int[] {1, 0, 1}) {
            long t0 = System.nanoTime();
            Check.result(c.write(DemoBoard.RELAY, Wire.value(level, 1)), "write " + DemoBoard.RELAY + " = " + level);
            long deadline = t0 + ctx.timeout().toNanos();
            while (ctx.target().pinLevel(DemoBoard.RELAY_PIN) != (level == 1)) {
                if (System.nanoTime() - deadline > 0) {
                    throw new HilFailure("BCM " + DemoBoard.RELAY_PIN + " did not go " + (level == 1 ? "high" : "low")
                            + " within " + ctx.timeout().toMillis() + " ms of writing " + DemoBoard.RELAY + " = " + level);
                }
                Thread.sleep(2);
            }
            latency.append(latency.length() == 0 ? "" : ", ").append((System.nanoTime() - t0) / 1_000_000L).append(" ms");
            Tlv state = Check.value(c.read(DemoBoard.RELAY_STATE), "read " + DemoBoard.RELAY_STATE);
            Check.equal((long) level, state.asLong(), DemoBoard.RELAY_STATE + " read back after the write");
        }
        Check.error(c.write(DemoBoard.RELAY, Wire.value(2, 1)), WireError.SCHEMA_TYPE_MISMATCH, "write 2 to " + DemoBoard.RELAY);
        Check.that(ctx.target().pinLevel(DemoBoard.RELAY_PIN), "a refused write must leave BCM " + DemoBoard.RELAY_PIN + " high");
        Check.result(c.write(DemoBoard.RELAY, Wire.value(0, 1)), "write " + DemoBoard.RELAY + " = 0 (leave it off)");
        ctx.note("write to pin: " + latency);
    }
}
