package io.spectrum.hil.scenario;

import io.spectrum.hil.Check;
import io.spectrum.hil.HilContext;
import io.spectrum.hil.Scenario;
import io.spectrum.client.PeerClient;
import io.spectrum.hil.oracle.Tlv;
import io.spectrum.hil.oracle.Wire;
import io.spectrum.wire.DeliveryPolicy;
import java.time.Duration;
import java.util.List;

/** RFC-0035 §4.3 and §6.2: create suspended, and a duplicate append beside it. */
public final class CreateSuspendedScenario implements Scenario {
    @Override
    public String name() {
        return "rfc0035-create-suspended-duplicate";
    }

    @Override
    public String checks() {
        return "an append with bit 9 set is admitted suspended: no durability latch, no delivery (§4.3); a "
                + "duplicate append with bit 9 clear installs no second edge and leaves the state alone (§6.2)";
    }

    @Override
    public void run(HilContext ctx) {
        PeerClient c = ctx.client();
        String v = DemoBoard.LED;
        String r = ctx.route(name());
        Duration quiet = Duration.ofMillis(Math.max(300, ctx.timeout().toMillis() / 10));
        try {
            Check.result(c.write(v, Wire.value(1, 1)), "write a value to latch");
            long t0 = System.nanoTime();
            Check.result(c.subscribe(v, r, DeliveryPolicy.SUSPENDED | DeliveryPolicy.DURABILITY_REQUEST, false).reply(),
                    "append suspended with durability");
            c.pumpFor(quiet);
            Check.equal(0, ctx.deliveries().since(r, t0).size(), "§4.3: deliveries to an edge created suspended");
            int n = Subscribers.requireSlot(c, v, r);
            Tlv rec = Check.value(c.slot(v, n, -1), "read [" + n + "]");
            Check.equal(DeliveryPolicy.SUSPENDED | DeliveryPolicy.DURABILITY_REQUEST, Subscribers.policyOf(rec),
                    "policy word rendered for a slot created suspended");
            Check.result(c.write(v, Wire.value(0, 1)), "write while suspended");
            c.pumpFor(quiet);
            Check.equal(0, ctx.deliveries().since(r, t0).size(), "deliveries to the suspended edge");

            int before = countTargets(Subscribers.list(c, v), r);
            Check.result(c.subscribe(v, r, DeliveryPolicy.DURABILITY_REQUEST, false).reply(), "duplicate append with bit 9 clear");
            c.pumpFor(quiet);
            List<Tlv> list = Subscribers.list(c, v);
            Check.equal(before, countTargets(list, r), "§6.2: edges to the same target after a duplicate append");
            Tlv still = Check.value(c.slot(v, n, -1), "read [" + n + "]");
            Check.that((Subscribers.policyOf(still) & DeliveryPolicy.SUSPENDED) != 0,
                    "§6.2: a duplicate append must leave the slot suspended, got " + still);
            Check.equal(0, ctx.deliveries().since(r, t0).size(), "deliveries after the duplicate append");
            ctx.note("slot [" + n + "]");
        } finally {
            Subscribers.clearQuietly(c, v, r);
        }
    }

    private static int countTargets(List<Tlv> list, String route) {
        int k = 0;
        for (Tlv t : list) {
            if (route.equals(Subscribers.targetOf(t))) {
                k++;
            }
        }
        return k;
    }
}
