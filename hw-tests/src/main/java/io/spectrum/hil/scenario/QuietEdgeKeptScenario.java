package io.spectrum.hil.scenario;

import io.spectrum.hil.Check;
import io.spectrum.hil.HilContext;
import io.spectrum.hil.Scenario;
import io.spectrum.client.PeerClient;
import io.spectrum.hil.oracle.Tlv;
import io.spectrum.hil.oracle.Wire;
import io.spectrum.wire.DeliveryPolicy;
import java.time.Duration;
import java.util.Arrays;

/** RFC-0035 §9.3: a suspended edge is never reaped for being quiet while its link is up. */
public final class QuietEdgeKeptScenario implements Scenario {
    /** Longer than the stock board's peer timeout (5 s), so a board that reaped idle links would show it. */
    static final Duration IDLE = Duration.ofSeconds(6);

    @Override
    public String name() {
        return "rfc0035-quiet-suspended-edge-kept";
    }

    @Override
    public String checks() {
        return "a suspended edge stays in its slot, suspended, through " + IDLE.toSeconds() + " s without traffic "
                + "from the suite (the host node only answers the board's liveness pings), and delivers again "
                + "after a resume (§9.3: no reaping by silence; the link stays up while the peer answers)";
    }

    @Override
    public void run(HilContext ctx) {
        PeerClient c = ctx.client();
        String v = DemoBoard.LED;
        String r = ctx.route(name());
        try {
            Check.result(c.subscribe(v, r, DeliveryPolicy.SUSPENDED, false).reply(), "append suspended");
            int n = Subscribers.requireSlot(c, v, r);
            Tlv before = Check.value(c.slot(v, n, -1), "read [" + n + "]");
            c.pumpFor(IDLE);
            Tlv after = Check.value(c.slot(v, n, -1), "read [" + n + "] after the quiet time");
            Check.that(Arrays.equals(before.encoded(), after.encoded()),
                    "§9.3: the quiet suspended slot must be kept as it was; before " + before + " after " + after);
            Check.result(c.resume(v, n, -1), "resume [" + n + "] (the toggle arm, bit 9 cleared)");
            long t0 = System.nanoTime();
            Check.result(c.write(v, Wire.value(1, 1)), "write after resume");
            Check.equal(1, ctx.deliveries().await(c, r, t0, 1, ctx.timeout()).size(), "deliveries after resume");
            ctx.note("slot [" + n + "] kept through " + IDLE.toSeconds() + " s");
        } finally {
            Subscribers.clearQuietly(c, v, r);
        }
    }
}
