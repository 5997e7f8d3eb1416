package io.spectrum.hil.scenario;

import io.spectrum.hil.Check;
import io.spectrum.hil.HilContext;
import io.spectrum.hil.Scenario;
import io.spectrum.hil.client.BoardClient;
import io.spectrum.hil.client.BoardClient.Inbound;
import io.spectrum.hil.client.Delivery;
import io.spectrum.hil.client.Wire;
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
        BoardClient c = ctx.client();
        String v = DemoBoard.LED;
        String durable = ctx.route(name());
        String plain = ctx.route(name());
        Duration quiet = Duration.ofMillis(Math.max(300, ctx.timeout().toMillis() / 10));
        try {
            byte[] value = Wire.value(0x2A, 1);
            Check.result(c.write(v, value), "write the value to retain");
            long mark = c.mark();
            long t0 = System.nanoTime();
            Check.result(c.subscribe(v, durable, DeliveryPolicy.DURABILITY_REQUEST), "subscribe with durability");
            c.pumpFor(quiet);
            List<Delivery> got = c.deliveriesSince(durable, t0);
            Check.equal(1, got.size(), "replayed deliveries to the durable subscriber");
            Check.that(Arrays.equals(value, got.get(0).payload().encoded()),
                    "the replay must carry the retained value, got " + got.get(0).payload());
            long deliverySeq = -1;
            long replySeq = -1;
            for (Inbound in : c.inboundSince(mark)) {
                if (in.frame() == null) {
                    continue;
                }
                int op = BoardClient.opOf(in.frame());
                String dst = Wire.pathText(in.frame().child(1).payload());
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
            Check.result(c.subscribe(v, plain, null), "subscribe without durability");
            c.pumpFor(quiet);
            Check.equal(0, c.deliveriesSince(plain, t1).size(), "deliveries to a subscriber that did not ask");
        } finally {
            Subscribers.clearQuietly(c, v, durable);
            Subscribers.clearQuietly(c, v, plain);
        }
    }
}
