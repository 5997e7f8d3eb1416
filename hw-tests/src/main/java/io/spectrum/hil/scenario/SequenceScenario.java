package io.spectrum.hil.scenario;

import io.spectrum.hil.Check;
import io.spectrum.hil.HilContext;
import io.spectrum.hil.Scenario;
import io.spectrum.client.PeerClient;
import io.spectrum.hil.oracle.Tlv;
import io.spectrum.client.Delivery;
import io.spectrum.hil.oracle.Wire;
import java.util.List;

/** The node stamps each delivery with a per-vertex sequence that only goes up. */
public final class SequenceScenario implements Scenario {
    static final int SAMPLES = 4;

    @Override
    public String name() {
        return "sequence-monotonic";
    }

    @Override
    public String checks() {
        return "a subscriber that asks for the topic stamp (qos spectrum.topic=1) gets seq and stale on every "
                + "delivery; seq rises strictly across the board's publishes and across remote writes to "
                + DemoBoard.LED + "; a fresh value is not stale";
    }

    @Override
    public void run(HilContext ctx) {
        PeerClient c = ctx.client();
        String counter = ctx.route(name());
        String led = ctx.route(name());
        try {
            long t0 = System.nanoTime();
            Check.result(c.subscribe(DemoBoard.COUNTER, counter, -1, true).reply(), "stamped subscribe to counter");
            List<Delivery> got = ctx.deliveries().await(c, counter, t0, SAMPLES, ctx.timeout().multipliedBy(4));
            Check.that(got.size() >= SAMPLES, "expected " + SAMPLES + " stamped deliveries of " + DemoBoard.COUNTER
                    + ", got " + got.size());
            checkRising(got, DemoBoard.COUNTER);

            Check.result(c.subscribe(DemoBoard.LED, led, -1, true).reply(), "stamped subscribe to led");
            long t1 = System.nanoTime();
            for (int i = 0; i < SAMPLES; i++) {
                Check.result(c.write(DemoBoard.LED, Wire.value(i & 1, 1)), "write led " + (i & 1));
            }
            List<Delivery> leds = ctx.deliveries().await(c, led, t1, SAMPLES, ctx.timeout());
            Check.equal(SAMPLES, leds.size(), "stamped deliveries of " + SAMPLES + " writes");
            checkRising(leds, DemoBoard.LED);
            Check.equal(SAMPLES - 1L, leds.get(SAMPLES - 1).seq() - leds.get(0).seq(),
                    "sequence steps across " + SAMPLES + " consecutive writes (one per publish)");
            ctx.note("counter seq " + got.get(0).seq() + ".." + got.get(got.size() - 1).seq()
                    + ", led seq " + leds.get(0).seq() + ".." + leds.get(SAMPLES - 1).seq());
        } finally {
            Subscribers.clearQuietly(c, DemoBoard.COUNTER, counter);
            Subscribers.clearQuietly(c, DemoBoard.LED, led);
        }
    }

    private static void checkRising(List<Delivery> ds, String vertex) {
        long prev = -1;
        for (Delivery d : ds) {
            Check.that(d.stamped(), "a delivery of " + vertex + " lacks the topic stamp: " + Tlv.decode(d.frame()));
            long seq = d.seq();
            Check.that(seq > prev, "sequence of " + vertex + " must rise strictly: " + prev + " then " + seq);
            Check.that(!d.stale(), "a freshly published value of " + vertex + " must not be stale");
            prev = seq;
        }
    }
}
