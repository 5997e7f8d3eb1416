package io.spectrum.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.Extensions;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node as a process runs it (caps stamped with {@code spectrum.boot} by {@link CapsProbe#stampBoot})
 * over a real UDP link, asked by raw datagram clients: a plain libtracer v1 client gets v1 bytes
 * (no {@code spectrum.*} key, no identity in the append answer), an announcing one the extended forms.
 */
class PlainPeerSeesV1Test {
    static final HexFormat HEX = HexFormat.of();
    static final String PLAIN_CAPS = "0b402e00" + "02000400636f7265" + "010002000100" + "0200070072666330303335"
            + "010002000100" + "02000500746f706963" + "010002000100";
    static final byte[] SPECTRUM = "spectrum.".getBytes();

    final NarrowNode node = new NarrowNode(NodeConfig.defaults());
    final UdpLink link;

    PlainPeerSeesV1Test() throws Exception {
        link = UdpLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), new UdpLinkConfig(), SystemClock.INSTANCE);
        node.attach(link);
        CapsProbe.stampBoot(node);
        node.write(NodePath.of("/board/counter"), new byte[] {1, 0, 1, 0, 7}, 0, 5);
    }

    @AfterEach
    void close() {
        link.close();
    }

    /** Sends one request from {@code client} and polls the node until its answer arrives. */
    byte[] ask(DatagramSocket client, byte[] request) throws Exception {
        client.send(new DatagramPacket(request, request.length, link.localAddress()));
        byte[] buf = new byte[2048];
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        client.setSoTimeout(5);
        for (int i = 0; i < 2000; i++) {
            node.poll();
            try {
                client.receive(p);
                byte[] got = Arrays.copyOf(buf, p.getLength());
                if (isReply(got)) {
                    return got;
                }
            } catch (SocketTimeoutException e) {
                // keep polling
            }
        }
        return null;
    }

    /** FWD whose op (first child, VALUE u8) is REPLY. */
    static boolean isReply(byte[] f) {
        return f.length > 8 && f[0] == TlvType.FWD && f[4] == TlvType.VALUE && f[8] == 3;
    }

    static byte[] fwd(boolean announce, int op, String dst, byte[] field, String src, byte[] payload) {
        byte[] b = new byte[512];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FWD).value(op, 1).raw(NodePath.of(dst).tlv());
        if (field != null) {
            w.raw(field);
        }
        w.raw(NodePath.of(src).tlv());
        if (payload != null) {
            w.raw(payload);
        }
        if (announce) {
            Extensions.announce(w);
        }
        w.end();
        return Arrays.copyOf(b, w.length());
    }

    static byte[] append(boolean announce) {
        byte[] field = HEX.parseHex("10401400" + "02000b00" + HEX.formatHex("subscribers".getBytes()) + "0100010001");
        byte[] rec = new byte[64];
        TlvWriter w = new TlvWriter().wrap(rec, 0, rec.length);
        w.begin(TlvType.SUBSCRIBER).raw(NodePath.of("/c").tlv()).end();
        return fwd(announce, 1, "/board/counter", field, "/c", Arrays.copyOf(rec, w.length()));
    }

    static boolean contains(byte[] b, byte[] s) {
        for (int i = 0; i + s.length <= b.length; i++) {
            if (Arrays.equals(b, i, i + s.length, s, 0, s.length)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void plainV1Client_capsAndAppendAnswers_areV1ByteForByte() throws Exception {
        try (DatagramSocket plain = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            byte[] caps = ask(plain, fwd(false, 0, "/$node/caps", null, "/r", null));
            assertNotNull(caps);
            // FWD{REPLY, dst /r, src /$node/caps, RESULT, the three-pair caps}
            assertEquals("0f405100" + "0100010003" + "060002000172" + "06000b0005246e6f64650463617073" + "0100010000" + PLAIN_CAPS,
                    HEX.formatHex(caps));
            byte[] ack = ask(plain, append(false));
            assertNotNull(ack);
            assertEquals("0f402200" + "0100010003" + "060002000163" + "06000e0005626f61726407636f756e746572" + "0100010000",
                    HEX.formatHex(ack), "RESULT with no payload, as libtracer v1 answers");
            assertFalse(contains(caps, SPECTRUM) || contains(ack, SPECTRUM));
        }
    }

    @Test
    void announcingClient_getsTheBootKeyAndTheIdentity() throws Exception {
        try (DatagramSocket spectrum = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            byte[] caps = ask(spectrum, fwd(true, 0, "/$node/caps", null, "/r", null));
            assertNotNull(caps);
            assertTrue(contains(caps, "spectrum.boot".getBytes()), HEX.formatHex(caps));
            byte[] ack = ask(spectrum, append(false)); // the announcement lasts for this peer
            assertNotNull(ack);
            assertTrue(HEX.formatHex(ack).endsWith("0100010000" + "10403900" + "02000b00" + HEX.formatHex("subscribers".getBytes())
                    + "0100040000000000" + "0100010001" + "02000c00" + HEX.formatHex("spectrum.gen".getBytes())
                    + "0100040001000000" + "0100010001"), HEX.formatHex(ack));
        }
    }
}
