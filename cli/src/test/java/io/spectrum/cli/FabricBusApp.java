package io.spectrum.cli;

import io.spectrum.client.Follower;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Reply;
import io.spectrum.bus.protocol.BusFields;
import io.spectrum.bus.protocol.Retention;
import io.spectrum.client.bus.BusClient;
import io.spectrum.wire.DeliveryMode;
import java.time.Duration;

/**
 * A host application on the host bus, run as its own process by {@link OneFabricProcessTest}: it
 * connects to the bus socket as {@code lab-app}, follows a board vertex through the bus with the
 * bounded delivery mode (consuming each delivery), writes the board's LED, writes a new vertex on the
 * host through the node door and publishes to the bus topic {@code lab.status} (the host's vertex
 * {@code /lab/status}), printing one line per step.
 *
 * <pre>FabricBusApp SOCKET VERTEX COUNT LED_PATH NEW_PATH NEW_VALUE</pre>
 */
public final class FabricBusApp {
    private FabricBusApp() {
    }

    /** Runs the steps above; exit 0, or 1 with one line when a step is refused or times out. */
    public static void main(String[] a) throws Exception {
        String socket = a[0];
        String vertex = a[1];
        int count = Integer.parseInt(a[2]);
        try (BusClient bus = BusClient.connect("unix://" + socket, "lab-app", 5_000)) {
            PeerClient node = bus.node();
            Follower f = new Follower(node, new Follower.Mode(DeliveryMode.BOUNDED, 8, 2));
            Reply r = f.follow(vertex, "/lab-app/follow");
            System.out.println("follow " + vertex + " " + (r.ok() ? "ok" : "refused " + r.code()));
            if (!r.ok()) {
                System.exit(1);
            }
            int got = 0;
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (got < count && System.nanoTime() < deadline) {
                node.pumpFor(Duration.ofMillis(20));
                for (Follower.Sample s = f.next(); s != null && got < count; s = f.next()) {
                    System.out.println("value " + s.path() + " seq " + s.delivery().seq() + " dlv " + s.delivery().dlv()
                            + " = " + s.value().text() + (s.stale() ? " stale" : ""));
                    f.handled(s);
                    got++;
                }
            }
            Reply led = node.write(a[3], new byte[] {0x01, 0x00, 0x01, 0x00, 0x01}); // VALUE u8 1
            System.out.println("write " + a[3] + " " + (led.ok() ? "ok" : "refused " + led.code()));
            int v = Integer.parseInt(a[5]);
            Reply pub = node.write(a[4], new byte[] {0x01, 0x00, 0x01, 0x00, (byte) v}); // VALUE u8 v
            System.out.println("write " + a[4] + " " + (pub.ok() ? "ok" : "refused " + pub.code()));
            // a bus topic is the host's vertex /lab/status: what it publishes there, libtracer readers see
            bus.declare("lab.status", Retention.LATEST);
            BusFields t = bus.publish("lab.status", "running".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            System.out.println("publish lab.status seq " + t.u64("topicSequence"));
            System.out.println("done");
        }
    }
}
