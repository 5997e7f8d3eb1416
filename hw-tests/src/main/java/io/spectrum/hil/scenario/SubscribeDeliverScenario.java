package io.spectrum.hil.scenario;

import io.spectrum.hil.Check;
import io.spectrum.hil.HilContext;
import io.spectrum.hil.Scenario;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Delivery;
import io.spectrum.hil.oracle.Tlv;
import io.spectrum.hil.oracle.Wire;
import io.spectrum.wire.TlvType;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/** A remote subscription delivers the board's own publishes and a remote peer's writes. */
public final class SubscribeDeliverScenario implements Scenario {
    @Override
    public String name() {
        return "subscribe-deliver";
    }

    @Override
    public String checks() {
        return "appending a SUBSCRIBER to " + DemoBoard.COUNTER + ":subscribers[] is acknowledged and the board's "
                + "periodic publishes arrive as FWD WRITE deliveries on the subscribe's route with an empty src; "
                + "a write to " + DemoBoard.LED + " reaches its subscriber once, unchanged";
    }

    @Override
    public void run(HilContext ctx) {
        PeerClient c = ctx.client();
        String counterRoute = ctx.route(name());
        String ledRoute = ctx.route(name());
        try {
            long t0 = System.nanoTime();
            Check.result(c.subscribe(DemoBoard.COUNTER, counterRoute, -1, false).reply(), "subscribe to " + DemoBoard.COUNTER);
            List<Delivery> got = ctx.deliveries().await(c, counterRoute, t0, 2, ctx.timeout().multipliedBy(3));
            Check.that(got.size() >= 2, "expected at least 2 deliveries of " + DemoBoard.COUNTER + " within "
                    + ctx.timeout().multipliedBy(3).toMillis() + " ms, got " + got.size());
            for (Delivery d : got) {
                Tlv src = Tlv.decode(d.frame()).child(2);
                Check.that(src != null && src.type() == TlvType.PATH && src.payload().length == 0,
                        "a delivery's src must be the empty PATH (no reply wanted), got " + src);
                Tlv value = d.value() == null ? null : Tlv.decode(d.value());
                Check.that(value != null && value.type() == TlvType.VALUE,
                        "a delivery of " + DemoBoard.COUNTER + " must carry its VALUE, got " + value);
            }

            Check.result(c.subscribe(DemoBoard.LED, ledRoute, -1, false).reply(), "subscribe to " + DemoBoard.LED);
            long t1 = System.nanoTime();
            byte[] v = Wire.value(1, 1);
            Check.result(c.write(DemoBoard.LED, v), "write " + DemoBoard.LED);
            List<Delivery> led = ctx.deliveries().await(c, ledRoute, t1, 1, ctx.timeout());
            Check.that(led.size() == 1, "expected one delivery of the write to " + DemoBoard.LED + ", got " + led);
            c.pumpFor(Duration.ofMillis(200));
            led = ctx.deliveries().since(ledRoute, t1);
            Check.equal(1, led.size(), "deliveries of one write");
            Check.that(Arrays.equals(v, led.get(0).value()),
                    "the delivered TLV must be the written TLV unchanged, got " + Tlv.decode(led.get(0).value()));
            ctx.note(got.size() + " counter deliveries, 1 led delivery");
        } finally {
            Subscribers.clearQuietly(c, DemoBoard.COUNTER, counterRoute);
            Subscribers.clearQuietly(c, DemoBoard.LED, ledRoute);
        }
    }
}
