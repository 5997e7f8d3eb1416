package io.spectrum.bridge;

import io.spectrum.board.Board;
import io.spectrum.host.runtime.HostRuntime;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.time.SystemClock;
import io.spectrum.wide.WideNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A board behind a host that goes away, into a real Mosquitto: a host (WideNode, a 2 s stale grace)
 * mounts an emulated board over UDP loopback and the bridge dials the host's client listener, as
 * {@code spectrum host --mqtt} does. When the board goes away the host marks its vertices stale and
 * tells its stamped subscribers at once, so the retained topic is republished with
 * {@code "stale": true} and a reason (user property {@code stale} = true) and the board's own
 * {@code $online} turns false while the bridge's stays true; when the grace runs out and the host
 * deletes the values, the bridge keeps each declared value retained, stale with its reason, never an
 * empty payload. A board that comes back on the same port is {@code $online} true again.
 */
class StaleAndPurgeTest {
    private static final String COUNTER = "spectrum/lab/board1/counter";
    private static final String BOARD_ONLINE = "spectrum/lab/board1/$online";
    private static final long GRACE_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    @Test
    void aBoardThatGoesAwayIsUnavailable_itsValuesStayRetainedStaleWithAReason_andItIsAvailableWhenBack() throws Exception {
        Mosquitto broker = Mosquitto.start();
        closing.add(broker);
        int[] boardPort = new int[1];
        Board board = Fabric.board("b1", 50, boardPort);
        closing.add(board);

        UdpLinkConfig quick = new UdpLinkConfig().peerTimeoutMillis(600).pingIntervalMillis(200);
        HostRuntime host = new HostRuntime("lab", new WideNode(HostRuntime.HOST_CONFIG.toBuilder()
                .staleGraceNanos(GRACE_NANOS).build()));
        closing.add(host);
        host.mount(UdpLink.dial(2, new InetSocketAddress("127.0.0.1", boardPort[0]), quick, SystemClock.INSTANCE),
                "board1", List.of());
        UdpLink clients = UdpLink.listen(3, new InetSocketAddress("127.0.0.1", 0), new UdpLinkConfig(), SystemClock.INSTANCE);
        host.attachListener(clients);
        host.start();
        MqttBridge bridge = MqttBridge.start(Fabric.client(clients.localAddress().getPort()), broker.address(),
                new BridgeOptions().host("lab"), n -> { });
        closing.add(bridge);
        Watch w = new Watch(broker, "test-stale", "spectrum/lab/#");
        closing.add(w);
        List<Watch.Seen> seen = w.seen();

        Watch.Seen fresh = w.await(s -> s.topic().equals(COUNTER) && s.payload().contains("\"seq\":")
                && !s.payload().contains("\"seq\":null") && !s.stale(), "a fresh stamped counter"); // a delivery, not the walk
        assertEquals("false", fresh.props().get("stale"), fresh.toString());
        w.await(s -> s.topic().equals(BOARD_ONLINE) && s.payload().equals("true"), "board1 available");

        board.close(); // the board goes away: the host's link to it falls silent, the host's liveness says down
        Watch.Seen stale = w.await(s -> s.topic().equals(COUNTER) && s.stale(), "the counter republished stale");
        assertEquals("true", stale.props().get("stale"), "the MQTT 5 user property says stale too: " + stale);
        assertTrue(stale.payload().contains("\"reason\":\"board away\""), "why, as the host marked it: " + stale.payload());
        Watch.Seen down = w.await(s -> s.topic().equals(BOARD_ONLINE) && s.payload().equals("false"), "board1 unavailable");
        assertTrue(down.retained() || seen.indexOf(down) > 0, down.toString());
        assertEquals("true", last(seen, "spectrum/lab/$online").payload(), "the bridge itself stays available");

        // past the grace: the board's vertices are declared, so the host keeps them, stale (docs/node.md,
        // "Declared vertices keep their value"), and the bridge keeps their retained messages
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(2 * GRACE_NANOS) + 1_000);
        io.spectrum.node.api.NodePath copy = io.spectrum.node.api.NodePath.of("/board1/counter");
        assertTrue(host.onNodeThread(() -> host.node().read(copy, new byte[64], 0, 64) > 0 && host.node().isStale(copy)),
                "the host keeps the board's declared value, stale");
        assertFalse(seen.stream().anyMatch(s -> s.topic().startsWith("spectrum/lab/board1/") && s.payload().isEmpty()),
                "no retained message of board1 was emptied: " + seen.stream().filter(s -> s.payload().isEmpty()).toList());
        try (BrokerView late = BrokerView.open(broker.address(), COUNTER)) {
            BrokerView.Value first = late.next(10_000);
            assertTrue(first != null && first.retained() && first.json().get("stale").asBoolean()
                    && first.json().get("reason").isTextual(), "a late subscriber gets the kept value, stale, with a reason: "
                    + (first == null ? null : first.json()));
        }

        int mark = seen.size();
        Board back = new Board("b1", 50);
        closing.add(back);
        back.attach(UdpLink.listen(1, new InetSocketAddress("127.0.0.1", boardPort[0]), new UdpLinkConfig(), SystemClock.INSTANCE));
        back.start();
        w.await(s -> seen.indexOf(s) >= mark && s.topic().equals(BOARD_ONLINE) && s.payload().equals("true"),
                "board1 available again");
        w.await(s -> seen.indexOf(s) >= mark && s.topic().equals(COUNTER) && !s.stale() && !s.payload().isEmpty(),
                "a fresh counter again");
    }

    private static Watch.Seen last(List<Watch.Seen> seen, String topic) {
        Watch.Seen found = null;
        for (Watch.Seen s : seen) {
            if (s.topic().equals(topic)) {
                found = s;
            }
        }
        assertTrue(found != null, "nothing on " + topic);
        return found;
    }
}
