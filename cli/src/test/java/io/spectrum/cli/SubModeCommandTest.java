package io.spectrum.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spectrum.client.Follower;
import io.spectrum.client.Requests;
import io.spectrum.host.runtime.HostRuntime;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.ServingNode;
import io.spectrum.time.SystemClock;
import io.spectrum.wide.WideNode;
import io.spectrum.wire.DeliveryMode;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.Extensions;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code spectrum sub --mode} (docs/extensions.md "Delivery modes") against a WideNode host over UDP
 * in this JVM, while a writer publishes as fast as the node takes it: bounded loses nothing and
 * pushes back on the publisher, latest reports what it replaced; a NARROW node ignores the mode and
 * sub says so; bad option combinations are usage errors; without --mode the append is today's bytes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SubModeCommandTest {
    private static final String TEMP = "/temp";

    private HostRuntime host;
    private String addr;
    private Thread writer;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicLong next = new AtomicLong(1);
    private final AtomicLong refusals = new AtomicLong();
    private final AtomicLong otherCodes = new AtomicLong();

    private void start(ServingNode node) throws Exception {
        host = new HostRuntime("host", node);
        UdpLink link = UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0), new UdpLinkConfig(), SystemClock.INSTANCE);
        host.attach(link);
        host.start();
        addr = "127.0.0.1:" + link.localAddress().getPort();
        assertEquals(WireError.OK, host.write(TEMP, ClientCommandsTest.value(0, 4)));
    }

    /** Publishes 1, 2, 3 ... one per millisecond; a refused value is tried again (counted), never skipped. */
    private void publishFast() {
        writer = new Thread(() -> {
            while (!stop.get()) {
                int rc = host.write(TEMP, ClientCommandsTest.value(next.get(), 4));
                if (rc == WireError.OK) {
                    next.incrementAndGet();
                } else if (rc == WireError.FLOW_BACKPRESSURE) {
                    refusals.incrementAndGet();
                } else {
                    otherCodes.incrementAndGet();
                }
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "fast publisher");
        writer.start();
    }

    @AfterEach
    void stopAll() throws Exception {
        stop.set(true);
        if (writer != null) {
            writer.join(5_000);
        }
        if (host != null) {
            host.close();
        }
    }

    @Test
    void bounded_everyValueArrivesInOrder_andThePublisherIsRefusedWhileTheQueueIsFull() throws Exception {
        start(new WideNode(HostRuntime.HOST_CONFIG));
        publishFast();
        Cli.Run sub = Cli.run("sub", "--peer", addr, "--json", "--mode", "bounded", "--queue", "2", "--inflight", "1",
                "-C", "5", TEMP);
        long refusedWhileSubscribed = refusals.get();
        assertEquals(0, sub.code(), sub.all());
        List<JsonNode> lines = new ArrayList<>();
        for (String l : sub.out().lines().toList()) {
            lines.add(new ObjectMapper().readTree(l));
        }
        assertEquals(5, lines.size(), sub.out());
        for (int i = 0; i < lines.size(); i++) {
            JsonNode o = lines.get(i);
            assertEquals(TEMP, o.get("path").asText());
            assertEquals(i + 1, o.get("dlv").asLong(), "numbered 1, 2, 3 ... " + sub.out());
            assertEquals(0, o.get("replaced").asLong(), "bounded replaces nothing");
            if (i > 0) {
                JsonNode before = lines.get(i - 1);
                assertEquals(before.get("number").asLong() + 1, o.get("number").asLong(), "no value lost: " + sub.out());
                assertEquals(before.get("seq").asLong() + 1, o.get("seq").asLong(), "no publish skipped: " + sub.out());
            }
        }
        assertTrue(refusedWhileSubscribed > 0, "the fast publisher was pushed back (tr::flow::backpressure), not dropped");
        assertEquals(0, otherCodes.get());
        assertFalse(sub.err().contains("did not take"), sub.err());

        stop.set(true);
        writer.join(5_000);
        for (int i = 0; i < 3; i++) { // a slot left behind would still hold two values and refuse these
            assertEquals(WireError.OK, host.write(TEMP, ClientCommandsTest.value(1_000 + i, 4)),
                    "sub cleared its bounded slot when it stopped");
        }
    }

    @Test
    void bounded_aDeliveryLostInTransit_isFoundByTheProbe_andItsCreditGivenBack() throws Exception {
        start(new WideNode(HostRuntime.HOST_CONFIG));
        // the stamp's pair for delivery number 2: NAME "dlv" VALUE u64 2
        byte[] dlv2 = HexFormat.of().parseHex("02000300" + "646c76" + "01000800" + "0200000000000000");
        try (DatagramSocket relay = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            InetSocketAddress node = new InetSocketAddress("127.0.0.1", Integer.parseInt(addr.substring(addr.indexOf(':') + 1)));
            AtomicLong dropped = new AtomicLong();
            Thread t = new Thread(() -> relay(relay, node, dlv2, dropped), "lossy relay");
            t.start();
            try {
                publishFast();
                Cli.Run sub = Cli.run("sub", "--peer", "127.0.0.1:" + relay.getLocalPort(), "--json", "--mode", "bounded",
                        "--queue", "2", "--inflight", "1", "-C", "3", TEMP);
                assertEquals(0, sub.code(), sub.all());
                assertEquals(1, dropped.get(), "the relay dropped delivery 2");
                List<Long> numbers = new ArrayList<>();
                for (String l : sub.out().lines().toList()) {
                    numbers.add(new ObjectMapper().readTree(l).get("dlv").asLong());
                }
                assertEquals(List.of(1L, 3L, 4L), numbers, "no redelivery, and the subscription did not stall: " + sub.out());
                assertTrue(sub.err().contains("spectrum sub: /temp: 1 delivery was lost in transit (numbers 2..2); "
                        + "their credits are given back"), sub.err());
            } finally {
                stop.set(true);
                t.join(5_000);
            }
        }
    }

    /** Forwards datagrams between the one client and {@code node}, dropping the first one that holds {@code drop}. */
    private void relay(DatagramSocket relay, InetSocketAddress node, byte[] drop, AtomicLong dropped) {
        java.net.SocketAddress client = null;
        byte[] buf = new byte[64 * 1024];
        try {
            relay.setSoTimeout(100);
            while (!stop.get()) {
                DatagramPacket p = new DatagramPacket(buf, buf.length);
                try {
                    relay.receive(p);
                } catch (SocketTimeoutException e) {
                    continue;
                }
                boolean fromNode = p.getSocketAddress().equals(node);
                if (!fromNode) {
                    client = p.getSocketAddress();
                }
                byte[] frame = Arrays.copyOf(p.getData(), p.getLength());
                if (fromNode && dropped.get() == 0 && contains(frame, drop)) {
                    dropped.incrementAndGet();
                    continue;
                }
                java.net.SocketAddress to = fromNode ? client : node;
                if (to != null) {
                    relay.send(new DatagramPacket(frame, frame.length, to));
                }
            }
        } catch (java.io.IOException e) {
            otherCodes.incrementAndGet();
        }
    }

    private static boolean contains(byte[] hay, byte[] needle) {
        for (int i = 0; i + needle.length <= hay.length; i++) {
            if (Arrays.equals(hay, i, i + needle.length, needle, 0, needle.length)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void latest_printsHowManyValuesEachDeliveryReplaced() throws Exception {
        start(new WideNode(HostRuntime.HOST_CONFIG));
        publishFast();
        Cli.Run sub = Cli.run("sub", "--peer", addr, "--mode", "latest", "--inflight", "1", "-C", "5", TEMP);
        assertEquals(0, sub.code(), sub.all());
        Pattern line = Pattern.compile("/temp = (\\d+)  \\(seq (\\d+)(?:, (\\d+) replaced)?\\)");
        List<String> lines = sub.out().lines().toList();
        assertEquals(5, lines.size(), sub.out());
        long replacedTotal = 0;
        long before = -1;
        for (String l : lines) {
            Matcher m = line.matcher(l);
            assertTrue(m.matches(), l);
            long v = Long.parseLong(m.group(1));
            long replaced = m.group(3) == null ? 0 : Long.parseLong(m.group(3));
            if (before >= 0) {
                assertEquals(v - before - 1, replaced, "every value published in between was replaced: " + sub.out());
            }
            replacedTotal += replaced;
            before = v;
        }
        assertTrue(replacedTotal > 0, "a publisher faster than the subscriber has values replaced: " + sub.out());
        assertEquals(0, refusals.get(), "latest never refuses a publish");
    }

    @Test
    void aNodeWithoutModes_deliversAsUsual_andSubSaysOnceItDidNotTakeTheMode() throws Exception {
        start(new NarrowNode(HostRuntime.HOST_CONFIG));
        publishFast();
        Cli.Run sub = Cli.run("sub", "--peer", addr, "--mode", "bounded", "--queue", "2", "--inflight", "1", "-C", "4", TEMP);
        assertEquals(0, sub.code(), sub.all());
        assertEquals(4, sub.out().lines().count(), sub.out());
        assertTrue(sub.out().lines().allMatch(l -> l.matches("/temp = \\d+  \\(seq \\d+\\)")), sub.out());
        List<String> said = sub.err().lines().filter(l -> l.contains("did not take --mode bounded")).toList();
        assertEquals(1, said.size(), sub.err());
        assertTrue(said.get(0).startsWith("spectrum sub: /temp: "), said.get(0));
        assertEquals(0, refusals.get(), "a NARROW node keeps no queues");
    }

    @Test
    void badModeOptions_areOneLineUsageErrors_andNothingIsSent() throws Exception {
        try (DatagramSocket peer = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            String at = "127.0.0.1:" + peer.getLocalPort();
            List<List<String>> bad = List.of(
                    List.of("--queue", "2"),
                    List.of("--inflight", "1"),
                    List.of("--mode", "latest", "--queue", "1"),
                    List.of("--mode", "latest", "--inflight", String.valueOf(DeliveryMode.LATEST_MAX_IN_FLIGHT + 1)),
                    List.of("--mode", "bounded", "--queue", "0"),
                    List.of("--mode", "bounded", "--queue", String.valueOf(DeliveryMode.BOUNDED_MAX_QUEUED + 1)),
                    List.of("--mode", "bounded", "--inflight", "0"),
                    List.of("--mode", "bounded", "--inflight", String.valueOf(DeliveryMode.BOUNDED_MAX_IN_FLIGHT + 1)),
                    List.of("--mode", "fast"),
                    List.of("--mode", "bounded", "--mqtt", "mqtt://127.0.0.1:9"));
            for (List<String> options : bad) {
                List<String> args = new ArrayList<>(List.of("sub", "--peer", at, TEMP, "-C", "1"));
                args.addAll(options);
                Cli.Run r = Cli.run(args.toArray(String[]::new));
                assertEquals(2, r.code(), options + ": " + r.all());
                List<String> err = r.err().lines().toList();
                assertEquals(2, err.size(), options + ": " + r.err());
                assertTrue(err.get(0).startsWith("spectrum sub: ") && err.get(0).contains("--"), options + ": " + err.get(0));
                assertEquals("Try 'spectrum sub --help' for more.", err.get(1));
                assertEquals("", r.out());
            }
            peer.setSoTimeout(200);
            try {
                peer.receive(new DatagramPacket(new byte[2048], 2048));
                throw new AssertionError("a usage error sent a frame");
            } catch (SocketTimeoutException expected) {
                // nothing was sent
            }
        }
        String limit = Cli.run("sub", "--peer", "127.0.0.1:9", TEMP, "--mode", "bounded", "--queue", "65").err();
        assertTrue(limit.startsWith("spectrum sub: --queue must be 1..64 (was 65)"), limit);
    }

    @Test
    void withoutMode_theAppendIsTodaysBytes_withModeItCarriesTheKeysAndTheAnnouncement() throws Exception {
        String route = "/cli/sub/0";
        byte[] plain = Requests.fwd(FwdView.OP_WRITE, Requests.path(TEMP), Requests.subscribers(), Requests.path(route),
                Requests.subscriber(route, DeliveryPolicy.DURABILITY_REQUEST, Follower.TOPIC));
        assertArrayEquals(plain, firstFrame());

        byte[] announce = new byte[64];
        TlvWriter w = new TlvWriter().wrap(announce, 0, announce.length);
        Extensions.announce(w);
        byte[] moded = Requests.fwd(FwdView.OP_WRITE, Requests.path(TEMP), Requests.subscribers(), Requests.path(route),
                Requests.subscriber(route, DeliveryPolicy.DURABILITY_REQUEST, Follower.TOPIC, DeliveryMode.BOUNDED, 2, 1),
                Arrays.copyOf(announce, w.length()));
        assertArrayEquals(moded, firstFrame("--mode", "bounded", "--queue", "2", "--inflight", "1"),
                "got " + HexFormat.of().formatHex(moded));
    }

    /**
     * The first WRITE {@code sub} sends to a peer that never answers (it then times out, exit 1); the
     * READs it sends before (does the path exist?) are skipped.
     */
    private static byte[] firstFrame(String... options) throws Exception {
        try (DatagramSocket peer = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            peer.setSoTimeout(10_000);
            List<String> args = new ArrayList<>(List.of("sub", "--peer", "127.0.0.1:" + peer.getLocalPort(), "--timeout", "300",
                    "-C", "1", TEMP));
            args.addAll(List.of(options));
            CompletableFuture<Cli.Run> sub = CompletableFuture.supplyAsync(() -> Cli.run(args.toArray(String[]::new)));
            DatagramPacket p = new DatagramPacket(new byte[4096], 4096);
            byte[] frame;
            do {
                peer.receive(p);
                frame = Arrays.copyOf(p.getData(), p.getLength());
            } while (frame.length < 9 || (frame[8] & 0x3F) != FwdView.OP_WRITE);
            assertEquals(1, sub.get(30, TimeUnit.SECONDS).code(), "no answer: the append times out");
            return frame;
        }
    }
}
