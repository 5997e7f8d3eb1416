package io.spectrum.hil.scenario;

import io.spectrum.hil.Check;
import io.spectrum.hil.HilContext;
import io.spectrum.hil.Scenario;
import io.spectrum.client.PeerClient;
import io.spectrum.hil.oracle.Tlv;
import io.spectrum.hil.FrameLog.Inbound;
import io.spectrum.client.Delivery;
import io.spectrum.hil.oracle.Wire;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.FwdView;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/** The retained value is replayed once to a subscriber that asks (durability bit), before the reply. */
public final class RetainedReplayScenario implements Scenario {
    @Override
    public String name() {
        return "retained-replay";
    }

    @Override
    public String checks() {
        return "a subscribe with delivery_policy bit 5 (durability) gets exactly one delivery of the retained "
                + "value, before the subscribe's reply; a subscribe without it gets none";
    }

    @Override
    public void run(HilContext ctx) {
        PeerClient c = ctx.client();
        String v = DemoBoard.LED;
        String durable = ctx.route(name());
        String plain = ctx.route(name());
        Duration quiet = Duration.ofMillis(Math.max(300, ctx.timeout().toMillis() / 10));
        try {
            byte[] value = Wire.value(1, 1);
            Check.result(c.write(v, value), "write the value to retain");
            long mark = ctx.frames().mark(c);
            long t0 = System.nanoTime();
            Check.result(c.subscribe(v, durable, DeliveryPolicy.DURABILITY_REQUEST, false).reply(), "subscribe with durability");
            c.pumpFor(quiet);
            List<Delivery> got = ctx.deliveries().since(durable, t0);
            Check.equal(1, got.size(), "replayed deliveries to the durable subscriber");
            Check.that(Arrays.equals(value, got.get(0).value()),
                    "the replay must carry the retained value, got " + Tlv.decode(got.get(0).value()));
            long deliverySeq = -1;
            long replySeq = -1;
            for (Inbound in : ctx.frames().since(mark)) {
                if (in.frame() == null) {
                    continue;
                }
                int op = in.opcode();
                String dst = String.valueOf(in.dst());
                if (dst.equals(durable) && op == FwdView.OP_WRITE && deliverySeq < 0) {
                    deliverySeq = in.seq();
                }
                if (dst.equals(durable) && op == FwdView.OP_REPLY && replySeq < 0) {
                    replySeq = in.seq();
                }
            }
            Check.that(deliverySeq > 0 && replySeq > 0 && deliverySeq < replySeq,
                    "the latched delivery must arrive before the subscribe's reply");

            long t1 = System.nanoTime();
            Check.result(c.subscribe(v, plain, -1, false).reply(), "subscribe without durability");
            c.pumpFor(quiet);
            Check.equal(0, ctx.deliveries().since(plain, t1).size(), "deliveries to a subscriber that did not ask");
        } finally {
            Subscribers.clearQuietly(c, v, durable);
            Subscribers.clearQuietly(c, v, plain);
        }
    }
}
