package io.spectrum.runtime;

import io.spectrum.link.Link;
import io.spectrum.link.local.LocalLink;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.testing.Collector;
import io.spectrum.testing.Frames;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Links named by URI: what {@link LinkSpec} parses, what it opens, and how a wrong URI is refused. */
class LinkUriTest {
    private final ManualClock clock = new ManualClock(0);

    @Test
    void everySchemeAndEveryShorthandParses() {
        assertEquals(new LinkSpec.Uri("udp://10.0.0.5:7700", "udp", "10.0.0.5:7700", Map.of()),
                LinkSpec.parse("udp://10.0.0.5:7700", null));
        assertEquals(new LinkSpec.Uri("serial:///dev/ttyAMA0?baud=115200", "serial", "/dev/ttyAMA0", Map.of("baud", "115200")),
                LinkSpec.parse("serial:///dev/ttyAMA0?baud=115200", null));
        assertEquals("unix", LinkSpec.parse("unix:///run/spectrum/bus.sock", null).scheme());
        assertEquals("/run/spectrum/bus.sock", LinkSpec.parse("unix:///run/spectrum/bus.sock", null).address());
        assertEquals("tcp", LinkSpec.parse("TCP://127.0.0.1:7702", "udp").scheme(), "the scheme is case-blind");
        LinkSpec.Uri d = LinkSpec.parse("dtls://10.0.0.5:7700?keys=/etc/spectrum/keys&name=b1", null);
        assertEquals(Map.of("keys", "/etc/spectrum/keys", "name", "b1"), d.params());
        // the options' shorthands: a value without a scheme is in the option's own scheme
        assertEquals("udp", LinkSpec.parse("127.0.0.1:7700", "udp").scheme());
        assertEquals("[::1]:7700", LinkSpec.parse("[::1]:7700", "udp").address());
        assertEquals("serial", LinkSpec.parse("/dev/ttyUSB0", "serial").scheme());
        assertEquals("/dev/ttyUSB0", LinkSpec.parse("serial:/dev/ttyUSB0", "udp").address(), "the host file's serial:DEVICE");
        assertEquals("unix", LinkSpec.parse("/run/spectrum/bus.sock", "unix").scheme());
    }

    @Test
    void aWrongUriIsOneLineThatSaysWhatToWrite() {
        String unknown = refusal("mqtt://broker:1883", "udp");
        assertTrue(unknown.startsWith("mqtt://broker:1883: no link is called mqtt://; write one of udp://127.0.0.1:7700, "), unknown);
        assertTrue(unknown.contains("serial:///dev/ttyAMA0?baud=115200") && unknown.contains("unix:///run/spectrum/bus.sock")
                && unknown.contains("tcp://127.0.0.1:7702") && unknown.contains("dtls://"), unknown);
        assertEquals("udp://127.0.0.1:7700?baud=9600: udp:// takes no ?parameters, not ?baud; write e.g. udp://127.0.0.1:7700",
                refusal("udp://127.0.0.1:7700?baud=9600", null));
        assertEquals("serial:///dev/x?speed=9600: serial:// takes only ?baud, not ?speed; write e.g. "
                + "serial:///dev/ttyAMA0?baud=115200", refusal("serial:///dev/x?speed=9600", null));
        assertEquals("udp://: no address; write e.g. udp://127.0.0.1:7700", refusal("udp://", null));
        assertEquals("127.0.0.1:7700: no scheme; write one of " + LinkTransports.examples(), refusal("127.0.0.1:7700", null));
        assertEquals("udp://127.0.0.1:99999: port out of range in '127.0.0.1:99999'; write e.g. udp://127.0.0.1:7700",
                openRefusal("udp://127.0.0.1:99999"));
        assertEquals("serial:///dev/null?baud=fast: the baud rate is a positive number; write e.g. "
                + "serial:///dev/ttyAMA0?baud=115200", openRefusal("serial:///dev/null?baud=fast"));
        assertEquals("dtls://127.0.0.1:7700: DTLS needs this node's key: add ?keys=DIR&name=NAME or ?key=FILE&ca=FILE "
                + "(or give --dtls-keys DIR); write e.g. dtls://127.0.0.1:7700?keys=DIR&name=NAME",
                openRefusal("dtls://127.0.0.1:7700"));
        assertTrue(openRefusal("dtls://127.0.0.1:7700?keys=/nonexistent").contains("?keys=DIR needs &name=NAME"));
        assertTrue(openRefusal("serial:///dev/ttyNOPE9?baud=9600").startsWith("serial device /dev/ttyNOPE9 does not exist"));
        for (String wrong : new String[] {"mqtt://x", "udp://", "udp://a:1?x", "dtls://127.0.0.1:1"}) {
            assertFalse(openRefusal(wrong).contains("\n"), wrong);
        }
    }

    @Test
    void udpUrisListenAndDialAndFramesFlow() throws Exception {
        Link listener = LinkSpec.listen(1, "udp://127.0.0.1:0", new LinkSettings(), clock);
        try {
            assertInstanceOf(UdpLink.class, listener);
            int port = ((UdpLink) listener).localAddress().getPort();
            Link dialer = LinkSpec.dial(2, "udp://127.0.0.1:" + port, new LinkSettings(), clock);
            try {
                assertInstanceOf(UdpLink.class, dialer);
                Collector at = new Collector();
                byte[] f = Frames.value(1, 8);
                assertEquals(WireError.OK, dialer.send(0, f, 0, f.length));
                Collector.pollUntil(listener, at, 1);
                assertArrayEquals(f, at.frames.get(0));
            } finally {
                dialer.close();
            }
        } finally {
            listener.close();
        }
    }

    @Test
    void unixUriListensAndADialerAnnouncesItsName(@TempDir Path dir) throws Exception {
        String uri = "unix://" + dir.resolve("bus.sock");
        Link server = LinkSpec.open(1, uri, LinkSpec.Role.LISTEN, null, new LinkSettings(), clock);
        try {
            assertInstanceOf(LocalLink.class, server);
            Link client = LinkSpec.open(2, uri, LinkSpec.Role.DIAL, null, new LinkSettings().name("svc"), clock);
            try {
                Collector at = new Collector();
                server.setPeerListener(at);
                Collector.pollUntil(server, at, 1); // the hello, delivered like any frame
                assertEquals("svc", server.peerName(at.peers.get(0)));
            } finally {
                client.close();
            }
        } finally {
            server.close();
        }
    }

    @Test
    void theSerialShorthandTakesTheBaudFromTheSettingsAndTheUriWins() {
        LinkSpec.Uri u = LinkSpec.parse("/dev/ttyS0", "serial").orParam("baud", "9600");
        assertEquals("9600", u.param("baud", null));
        assertEquals("57600", LinkSpec.parse("serial:///dev/ttyS0?baud=57600", "serial").orParam("baud", "9600")
                .param("baud", null));
    }

    @Test
    void anInProcessPairCarriesFramesBothWaysAndReportsTheOtherEndGone() throws Exception {
        Link[] pair = LinkSpec.inProcessPair(1, 2, new LinkSettings());
        Collector node = new Collector();
        Collector client = new Collector();
        pair[0].setPeerListener(node);
        byte[] f = Frames.value(1, 8);
        assertEquals(WireError.OK, pair[1].send(0, f, 0, f.length));
        assertEquals(1, pair[0].poll(node, 16));
        assertArrayEquals(f, node.frames.get(0));
        assertEquals("up 0", node.events.get(0));
        byte[] g = Frames.value(2, 8);
        assertEquals(WireError.OK, pair[0].send(0, g, 0, g.length));
        assertEquals(1, pair[1].poll(client, 16));
        assertArrayEquals(g, client.frames.get(0));
        pair[1].close();
        pair[0].poll(node, 16);
        assertEquals("down 0", node.events.get(1));
        assertEquals(WireError.TRANSPORT_DOWN, pair[0].send(0, g, 0, g.length));
        pair[0].close();
    }

    @Test
    void theTcpShorthandAndUriOpenTheSameTransport() throws Exception {
        Link a = LinkSpec.tcpListen(1, ":0", new LinkSettings(), clock);
        Link b = LinkSpec.open(2, "tcp://127.0.0.1:0", LinkSpec.Role.LISTEN, "udp", new LinkSettings(), clock);
        try {
            assertInstanceOf(LocalLink.class, a);
            assertInstanceOf(LocalLink.class, b);
            assertTrue(((InetSocketAddress) ((LocalLink) b).localAddress()).getAddress().isLoopbackAddress());
        } finally {
            a.close();
            b.close();
        }
    }

    private static String refusal(String text, String shorthand) {
        return assertThrows(IllegalArgumentException.class, () -> LinkSpec.parse(text, shorthand)).getMessage();
    }

    @Test
    void aUdpLinksBatchIsSetPerLinkAndTheProcessWideOffSwitchWins() throws Exception {
        try (Link plain = LinkSpec.listen(1, "udp://127.0.0.1:0", new LinkSettings(), clock);
             Link wide = LinkSpec.listen(2, "udp://127.0.0.1:0", new LinkSettings().batch(64), clock);
             Link off = LinkSpec.listen(3, "udp://127.0.0.1:0", new LinkSettings().batch(0), clock)) {
            UdpLink p = assertInstanceOf(UdpLink.class, plain);
            int expectedDefault = p.batchedIo() ? io.spectrum.link.udp.UdpLinkConfig.DEFAULT_BATCH : 0;
            assertEquals(expectedDefault, p.batch(), "unset: the link's default");
            // where batching is off for the process (spectrum.udp.batch=0) or unavailable, 64 stays 0
            assertEquals(p.batchedIo() ? 64 : 0, ((UdpLink) wide).batch());
            assertEquals(0, ((UdpLink) off).batch());
            assertFalse(((UdpLink) off).batchedIo());
        }
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new LinkSettings().batch(1025))
                .getMessage().contains("0..1024"));
    }

    private String openRefusal(String text) {
        return assertThrows(IllegalArgumentException.class,
                () -> LinkSpec.open(1, text, LinkSpec.Role.DIAL, "udp", new LinkSettings(), clock)).getMessage();
    }
}
