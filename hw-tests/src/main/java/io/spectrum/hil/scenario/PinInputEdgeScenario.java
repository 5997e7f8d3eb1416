package io.spectrum.hil.scenario;

import io.spectrum.client.PeerClient;
import io.spectrum.hil.Check;
import io.spectrum.client.Delivery;
import io.spectrum.hil.HilContext;
import io.spectrum.hil.HilSkip;
import io.spectrum.hil.Scenario;
import io.spectrum.hil.oracle.Tlv;
import java.util.List;

/** A level change on a declared GPIO input reaches a subscribed host as a delivery, and is counted. */
public final class PinInputEdgeScenario implements Scenario {
    @Override
    public String name() {
        return "declared-input-edge-reaches-host";
    }

    @Override
    public String checks() {
        return "driving the board's declared input pin (BCM " + DemoBoard.BUTTON_PIN + ") high then low delivers "
                + DemoBoard.BUTTON + " = 1 then 0 to a subscribed host, and " + DemoBoard.BUTTON_EDGES
                + " counts both edges";
    }

    @Override
    public void run(HilContext ctx) throws Exception {
        if (!ctx.target().canDrivePins()) {
            throw new HilSkip("target cannot drive the board's pins");
        }
        PeerClient c = ctx.client();
        String route = ctx.route(name());
        try {
            long edgesBefore = Check.value(c.read(DemoBoard.BUTTON_EDGES), "read " + DemoBoard.BUTTON_EDGES).asLong();
            Check.result(c.subscribe(DemoBoard.BUTTON, route, -1, false).reply(), "subscribe to " + DemoBoard.BUTTON);
            StringBuilder latency = new StringBuilder();
            for (int level : new int[] {1, 0}) {
                long t0 = System.nanoTime();
                ctx.target().drivePin(DemoBoard.BUTTON_PIN, level == 1);
                List<Delivery> got = ctx.deliveries().await(c, route, t0, 1, ctx.timeout());
                long ms = (System.nanoTime() - t0) / 1_000_000L;
                Check.that(!got.isEmpty(), "no delivery of " + DemoBoard.BUTTON + " within " + ctx.timeout().toMillis()
                        + " ms of driving BCM " + DemoBoard.BUTTON_PIN + (level == 1 ? " high" : " low"));
                Tlv v = Tlv.decode(got.get(got.size() - 1).value());
                Check.equal((long) level, v.asLong(), DemoBoard.BUTTON + " after driving the pin");
                latency.append(latency.length() == 0 ? "" : ", ").append(level == 1 ? "rise " : "fall ").append(ms).append(" ms");
            }
            long edgesAfter = Check.value(c.read(DemoBoard.BUTTON_EDGES), "read " + DemoBoard.BUTTON_EDGES).asLong();
            Check.equal(edgesBefore + 2, edgesAfter, "edges counted for one high and one low");
            ctx.note("pin to host delivery: " + latency);
        } finally {
            Subscribers.clearQuietly(c, DemoBoard.BUTTON, route);
        }
    }
}
