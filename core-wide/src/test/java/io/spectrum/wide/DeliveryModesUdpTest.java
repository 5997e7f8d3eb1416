package io.spectrum.wide;

import static io.spectrum.wide.ModeWire.appendField;
import static io.spectrum.wide.ModeWire.consumed;
import static io.spectrum.wide.ModeWire.fwd;
import static io.spectrum.wide.ModeWire.inflight;
import static io.spectrum.wide.ModeWire.mode;
import static io.spectrum.wide.ModeWire.queue;
import static io.spectrum.wide.ModeWire.record;
import static io.spectrum.wide.ModeWire.slotField;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.time.SystemClock;
import io.spectrum.wide.ModeWire.Frame;
import io.spectrum.wire.DeliveryMode;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.WireError;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * A bounded subscription over a real UDP link (loopback): a WideNode listening on a {@link UdpLink},
 * a libtracer-speaking client on a dialing one that appends a SUBSCRIBER with the mode keys, reads
 * the numbered deliveries and sends consumed messages. Outcomes only; the pump's guard stops a hang.
 */
class DeliveryModesUdpTest {
    static final byte[] ROUTE = NodePath.of("/client/sub").tlv();

    /** The client side: every frame it got. */
    static final class Client implements FrameHandler {
        final List<Frame> got = new ArrayList<>();

        @Override
        public void onFrame(Link link, int peer, byte[] buf, int off, int len) {
            got.add(new Frame(Arrays.copyOfRange(buf, off, off + len)));
        }

        List<Frame> deliveries() {
            List<Frame> out = new ArrayList<>();
            for (Frame f : got) {
                if (f.isDelivery()) {
                    out.add(f);
                }
            }
            return out;
        }
    }

    static void pump(WideNode node, UdpLink client, Client c, BooleanSupplier done, String what) {
        long guard = System.nanoTime() + 20_000_000_000L;
        while (!done.getAsBoolean()) {
            int n = node.poll() + client.poll(c, 16);
            if (n == 0) {
                Thread.onSpinWait();
            }
            if (System.nanoTime() - guard > 0) {
                fail("waiting for " + what + "; the client got " + c.got);
            }
        }
    }

    @Test
    void boundedOverUdp_creditsComeBackWithACumulativeConsumed_andAFullQueueRefusesThePublish() throws Exception {
        WideNode node = new WideNode(WideNode.hostConfig().clock(SystemClock.INSTANCE).peerDeliveriesPerSecond(0).build());
        UdpLink server = UdpLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), new UdpLinkConfig(),
                SystemClock.INSTANCE);
        UdpLink client = UdpLink.dial(2, server.localAddress(), new UdpLinkConfig(), SystemClock.INSTANCE);
        Client c = new Client();
        NodePath t = NodePath.of("/board/temp");
        try {
            assertEquals(WireError.OK, node.attach(server));
            assertEquals(WireError.OK, node.write(t, Tlv.value(0, 2), 0, 6));
            byte[] append = fwd(FwdView.OP_WRITE, t.tlv(), appendField(), ROUTE,
                    record(ROUTE, mode(DeliveryMode.BOUNDED), queue(2), inflight(2)));
            assertEquals(WireError.OK, client.send(0, append, 0, append.length));
            pump(node, client, c, () -> !c.got.isEmpty(), "the append's answer");
            assertEquals(WireError.OK, c.got.get(0).status);
            assertEquals(1, node.listenerCount(t));

            for (int n = 1; n <= 4; n++) {
                assertEquals(WireError.OK, node.write(t, Tlv.value(n, 2), 0, 6), "publish " + n);
            }
            assertEquals(WireError.FLOW_BACKPRESSURE, node.write(t, Tlv.value(5, 2), 0, 6),
                    "2 in flight, 2 queued: the fifth is refused whole");
            assertEquals(5, node.sequence(t), "the first value and four publishes numbered; the refused one not");
            pump(node, client, c, () -> c.deliveries().size() == 2, "the two in-flight deliveries");
            assertEquals(List.of(1L, 2L), dlvs(c.deliveries()));

            // the client's "consumed 1" is lost on the way; its "consumed 2" repairs it
            byte[] consumed2 = fwd(FwdView.OP_WRITE, t.tlv(), slotField(0), ROUTE, consumed(2));
            assertEquals(WireError.OK, client.send(0, consumed2, 0, consumed2.length));
            pump(node, client, c, () -> c.deliveries().size() == 4, "the two queued values");
            List<Frame> ds = c.deliveries();
            assertEquals(List.of(3L, 4L), dlvs(ds.subList(2, 4)));
            assertEquals(3, ds.get(2).number());
            assertEquals(4, ds.get(3).number());
            assertEquals(WireError.OK, node.write(t, Tlv.value(6, 2), 0, 6), "the queue has room again");
        } finally {
            node.close();
            server.close();
            client.close();
        }
    }

    static List<Long> dlvs(List<Frame> fs) {
        List<Long> out = new ArrayList<>();
        for (Frame f : fs) {
            out.add(f.dlv);
        }
        return out;
    }
}
