package io.spectrum.bridge;

import io.spectrum.board.Board;
import io.spectrum.client.PeerClient;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.time.SystemClock;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.fail;

/** Test pieces: an emulated demo board on a UDP port, a bridge client of it, and the broker's retained view. */
final class Fabric {
    private Fabric() { }

    /** A demo board publishing every {@code periodMillis}, listening on a free loopback UDP port. */
    static Board board(String name, long periodMillis, int[] port) throws IOException {
        Board b = new Board(name, periodMillis);
        UdpLink l = UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0), new UdpLinkConfig(), SystemClock.INSTANCE);
        port[0] = l.localAddress().getPort();
        b.attach(l);
        b.start();
        return b;
    }

    /** A client of the node at 127.0.0.1:{@code port} over UDP (what {@code spectrum bridge --peer} makes). */
    static PeerClient client(int port) throws IOException {
        UdpLink link = UdpLink.dial(9, new InetSocketAddress("127.0.0.1", port), new UdpLinkConfig(), SystemClock.INSTANCE);
        return new PeerClient(link, 0, Duration.ofSeconds(2));
    }

    /**
     * Reads {@code spectrum/#} from the broker, keeping the latest value per path, until
     * {@code done} holds for that map (then returns it) or 60 s pass (then fails with what was seen).
     */
    static Map<String, BrokerView.Value> until(Mosquitto broker, String filter,
                                               Predicate<Map<String, BrokerView.Value>> done, String what) throws Exception {
        Map<String, BrokerView.Value> seen = new HashMap<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try (BrokerView v = BrokerView.open(broker.address(), filter)) {
            while (System.nanoTime() < deadline) {
                BrokerView.Value x = v.next(100);
                if (x != null) {
                    seen.put(x.path(), x);
                }
                if (done.test(seen)) {
                    return seen;
                }
            }
        }
        fail(what + " did not happen within 60 s; the broker showed " + seen.keySet());
        return seen;
    }
}
