package io.spectrum.hil.scenario;

import io.spectrum.hil.Check;
import io.spectrum.hil.HilContext;
import io.spectrum.hil.Scenario;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Requests;
import io.spectrum.hil.FrameLog.Inbound;
import io.spectrum.client.Delivery;
import io.spectrum.hil.oracle.Tlv;
import io.spectrum.hil.oracle.Wire;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.WireError;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/** RFC-0035 over the wire: list, suspend, resume, clear one subscription among two. */
public final class SubscriptionSurfaceScenario implements Scenario {
    @Override
    public String name() {
        return "rfc0035-suspend-resume-clear-list";
    }

    @Override
    public String checks() {
        return "RFC-0035 on " + DemoBoard.LED + ": the positional list addresses [N]; [N] reads render the live "
                + "bit 9 (§5.1); the toggle arm suspends and resumes with no frame sent and no replay (§4.4, §4.5, "
                + "§9.1); a suspended edge receives nothing while its neighbour does (§4.1); a retried toggle is a "
                + "no-op; a non-SUBSCRIBER write is type_mismatch and leaves the slot; a clear leaves an empty-STATUS "
                + "hole (§5.2); [N] with no slot is path::invalid";
    }

    @Override
    public void run(HilContext ctx) {
        PeerClient c = ctx.client();
        String v = DemoBoard.LED;
        String ra = ctx.route(name());
        String rb = ctx.route(name());
        Duration quiet = Duration.ofMillis(Math.max(300, ctx.timeout().toMillis() / 10));
        try {
            Check.result(c.subscribe(v, ra, -1, false).reply(), "subscribe A");
            Check.result(c.subscribe(v, rb, -1, false).reply(), "subscribe B");
            int na = Subscribers.requireSlot(c, v, ra);
            int nb = Subscribers.requireSlot(c, v, rb);
            Check.that(na < nb, "A was appended before B, so its slot must come first: A=" + na + " B=" + nb);

            // [N] read of a record admitted without a policy word, while delivering: the record unchanged
            Tlv recA = Check.value(c.slot(v, na, -1), "read [" + na + "]");
            Check.equal(ra, Subscribers.targetOf(recA), "target of [" + na + "]");
            Check.equal(0, Subscribers.policyOf(recA) & DeliveryPolicy.SUSPENDED, "bit 9 of a delivering slot");
            byte[] delivering = Subscribers.render(recA, false);
            byte[] suspended = Subscribers.render(recA, true);
            Check.that(Arrays.equals(delivering, recA.encoded()),
                    "§5.1 rule 2: a delivering slot without a policy word renders its record unchanged");

            // suspend A: the toggle arm; nothing but the reply may come back
            long mark = ctx.frames().mark(c);
            Check.result(c.suspend(v, na, -1), "toggle [" + na + "] to suspended");
            c.pumpFor(quiet);
            for (Inbound in : ctx.frames().since(mark)) {
                Check.that(in.frame() != null && (in.opcode() == FwdView.OP_REPLY
                                || Liveness.isPing(in)),
                        "§9.1: a toggle sends nothing but its reply, got " + in.frame());
            }
            Tlv readBack = Check.value(c.slot(v, na, -1), "read [" + na + "] suspended");
            Check.that(Arrays.equals(suspended, readBack.encoded()),
                    "§5.1 rule 3: a suspended slot renders with SETTINGS{delivery_policy 0x0200} appended; expected "
                            + Tlv.decode(suspended) + " got " + readBack);
            List<Tlv> list = Subscribers.list(c, v);
            Check.that(list.size() > na && Arrays.equals(suspended, list.get(na).encoded()),
                    "§5.2: the list shows slot " + na + " at its position with the live bit, got " + list);

            // a write reaches B only
            long t1 = System.nanoTime();
            Check.result(c.write(v, Wire.value(1, 1)), "write while A is suspended");
            Check.equal(1, ctx.deliveries().await(c, rb, t1, 1, ctx.timeout()).size(), "deliveries to B");
            c.pumpFor(quiet);
            Check.equal(0, ctx.deliveries().since(ra, t1).size(), "§4.1: deliveries to suspended A");

            // the retried toggle is a no-op success
            Check.result(c.suspend(v, na, -1), "retried suspend of [" + na + "]");
            Tlv again = Check.value(c.slot(v, na, -1), "read [" + na + "]");
            Check.that(Arrays.equals(suspended, again.encoded()), "a retried toggle leaves the slot suspended");

            // resume A: no replay of the value written while suspended
            long t2 = System.nanoTime();
            Check.result(c.resume(v, na, -1), "toggle [" + na + "] to delivering");
            c.pumpFor(quiet);
            Check.equal(0, ctx.deliveries().since(ra, t2).size(), "§4.5: deliveries to A on resume (no replay)");
            Check.that(Arrays.equals(delivering,
                            Check.value(c.slot(v, na, -1), "read resumed").encoded()),
                    "a resumed slot renders its record unchanged again");
            long t3 = System.nanoTime();
            Check.result(c.write(v, Wire.value(0, 1)), "write after resume");
            Check.equal(1, ctx.deliveries().await(c, ra, t3, 1, ctx.timeout()).size(), "deliveries to resumed A");

            // arm 4: anything else is a type mismatch and the slot stays
            Check.error(c.write(v, Requests.subscribersAt(na, -1), Wire.value(1, 1)), WireError.SCHEMA_TYPE_MISMATCH,
                    "write VALUE to [" + na + "]");
            Check.equal(na, Subscribers.slotOf(c, v, ra), "slot of A after the refused write");

            // N with no slot: never grown from a wire index
            Check.error(c.clear(v, 60000, -1), WireError.PATH_INVALID,
                    "clear of [60000]");

            // clear A: its position becomes an empty STATUS hole, B keeps its position
            Check.result(c.clear(v, na, -1), "clear [" + na + "]");
            List<Tlv> after = Subscribers.list(c, v);
            Check.that(after.size() > nb, "§5.2: the list still reaches B's slot " + nb + ": " + after);
            Check.that(Subscribers.isHole(after.get(na)),
                    "§5.2: a cleared slot lists as 09 00 00 00, got " + after.get(na));
            Check.equal(rb, Subscribers.targetOf(after.get(nb)), "target at B's position after clearing A");
            long t4 = System.nanoTime();
            Check.result(c.write(v, Wire.value(1, 1)), "write after clear");
            Check.equal(1, ctx.deliveries().await(c, rb, t4, 1, ctx.timeout()).size(), "deliveries to B after clearing A");
            c.pumpFor(quiet);
            List<Delivery> toA = ctx.deliveries().since(ra, t4);
            Check.equal(0, toA.size(), "deliveries to cleared A");
            ctx.note("A=[" + na + "] B=[" + nb + "]");
        } finally {
            Subscribers.clearQuietly(c, v, ra);
            Subscribers.clearQuietly(c, v, rb);
        }
    }
}
