package io.spectrum.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.node.api.NodePath;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.FwdRewrite;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Opt;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link FwdRewrite} writes the frame the libtracer C++ router writes, byte for byte: each frame is
 * sent through refnode ({@code --relay x=…} to a socket this test holds) and the forwarded datagram
 * compared with {@code FwdRewrite.forward} of the same input, strip {@code /x} and inbound run
 * {@code /net/udp-server/probe} (refnode's client link) on the way out, and strip
 * {@code /net/udp-server/probe} with src growth {@code /x} on the way back. Covers a READ, a
 * subscribe (FIELD and SUBSCRIBER payload verbatim), a delivery (empty src), a stamped frame (TS
 * kept), a CRC-trailed frame (CRC dropped), a REPLY (src not grown) and a delivery back. Skipped
 * with a named reason without refnode ({@link RefnodeRouterInteropTest#refnodeBinary()}).
 */
class RefnodeRewriteBytesTest {
    private static final byte[] RUN_IN = runOf("net", "udp-server", "probe");
    private static final byte[] RUN_X = runOf("x");
    private Process refnode;
    private DatagramSocket client;
    private DatagramSocket relayEnd;
    private int refPort;

    @AfterEach
    void stop() throws InterruptedException {
        if (refnode != null) {
            refnode.destroy();
            refnode.waitFor();
        }
        if (client != null) {
            client.close();
        }
        if (relayEnd != null) {
            relayEnd.close();
        }
    }

    private void start() throws IOException {
        Path bin = RefnodeRouterInteropTest.refnodeBinary();
        relayEnd = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        client = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        relayEnd.setSoTimeout(200);
        client.setSoTimeout(200);
        refPort = RefnodeRouterInteropTest.freePortPair();
        refnode = new ProcessBuilder(bin.toString(), Integer.toString(refPort), "--quiet", "--seconds", "60",
                "--relay", "x=127.0.0.1:" + relayEnd.getLocalPort())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }

    @Test
    void requestsRepliesAndDeliveriesMatchTheReferenceRouterByteForByte() throws IOException {
        start();
        byte[] ep = NodePath.of("/reply-ep").tlv();
        byte[] read = fwd(Opt.PL, FwdView.OP_READ, NodePath.of("/x/sensor/temp").tlv(), null, ep);
        byte[] sub = fwd(Opt.PL, FwdView.OP_WRITE, NodePath.of("/x/sensor/temp").tlv(), RouteFrames.subscribersAppend(), ep,
                RouteFrames.subscriber("/reply-ep"));
        byte[] delivery = fwd(Opt.PL, FwdView.OP_WRITE, NodePath.of("/x/a/b").tlv(), null, new byte[] {6, 0, 0, 0},
                RouteFrames.value(7));
        byte[] stamped = fwd(Opt.PL | Opt.TS, FwdView.OP_READ, NodePath.of("/x/sensor").tlv(), null, ep);
        byte[] crc = fwd(Opt.PL | Opt.CR, FwdView.OP_READ, NodePath.of("/x/cfg/name").tlv(), null, ep);
        List<String> cases = new ArrayList<>();
        // the first request also teaches refnode where the client is (its single-peer listener answers the last sender)
        for (byte[] req : List.of(read, sub, delivery, stamped, crc)) {
            byte[] got = through(client, new InetSocketAddress("127.0.0.1", refPort), req, relayEnd);
            assertEquals(hex(expected(req, RUN_X.length, RUN_IN)), hex(got), "forwarded " + hex(req));
            cases.add(hex(req));
        }
        // back: refnode's relay link dialed relayEnd from refPort + 1
        InetSocketAddress relayLink = new InetSocketAddress("127.0.0.1", refPort + 1);
        byte[] reply = fwd(Opt.PL, FwdView.OP_REPLY, prepend(RUN_IN, ep), null, NodePath.of("/sensor/temp").tlv(),
                RouteFrames.value(0), RouteFrames.value(1234));
        byte[] gotReply = through(relayEnd, relayLink, reply, client);
        assertEquals(hex(expected(reply, RUN_IN.length, RUN_X)), hex(gotReply), "a REPLY: dst stripped, src not grown");
        byte[] back = fwd(Opt.PL, FwdView.OP_WRITE, prepend(RUN_IN, NodePath.of("/mine").tlv()), null,
                new byte[] {6, 0, 0, 0}, RouteFrames.value(99));
        byte[] gotBack = through(relayEnd, relayLink, back, client);
        assertEquals(hex(expected(back, RUN_IN.length, RUN_X)), hex(gotBack), "a delivery back: src grown to /x");
        assertTrue(cases.size() == 5);
    }

    /** What {@link FwdRewrite#forward} makes of {@code frame}. */
    private static byte[] expected(byte[] frame, int strip, byte[] run) {
        TlvIndex x = new TlvIndex();
        assertEquals(WireError.OK, new FrameDecoder().decode(frame, 0, frame.length, x));
        FwdView f = new FwdView();
        assertEquals(WireError.OK, f.wrap(x, 0));
        byte[] out = new byte[1024];
        int n = FwdRewrite.forward(f, strip, run, 0, run.length, out, 0, out.length);
        assertTrue(n > 0, "rewrite refused: " + n);
        return Arrays.copyOf(out, n);
    }

    /** Sends {@code frame} from {@code from} to {@code to} (again while nothing arrives) and returns what {@code at} receives. */
    private static byte[] through(DatagramSocket from, InetSocketAddress to, byte[] frame, DatagramSocket at)
            throws IOException {
        byte[] buf = new byte[2048];
        for (int attempt = 0; attempt < 50; attempt++) { // refnode may still be starting
            from.send(new DatagramPacket(frame, frame.length, to));
            DatagramPacket p = new DatagramPacket(buf, buf.length);
            try {
                at.receive(p);
                return Arrays.copyOf(buf, p.getLength());
            } catch (SocketTimeoutException again) {
                // resend
            }
        }
        throw new AssertionError("refnode forwarded nothing for " + hex(frame));
    }

    private static byte[] fwd(int opt, int op, byte[] dst, byte[] field, byte[] src, byte[]... payload) {
        byte[] b = new byte[512];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FWD, opt).value(op, 1).raw(dst);
        if (field != null) {
            w.raw(field);
        }
        w.raw(src);
        for (byte[] p : payload) {
            w.raw(p);
        }
        w.end(0x1122334455667788L);
        assertEquals(WireError.OK, w.error());
        return Arrays.copyOf(b, w.length());
    }

    /** A PATH TLV whose body is {@code run} followed by {@code path}'s body. */
    private static byte[] prepend(byte[] run, byte[] path) {
        int body = run.length + path.length - 4;
        byte[] b = new byte[4 + body];
        b[0] = 6;
        b[2] = (byte) body;
        b[3] = (byte) (body >>> 8);
        System.arraycopy(run, 0, b, 4, run.length);
        System.arraycopy(path, 4, b, 4 + run.length, path.length - 4);
        return b;
    }

    private static byte[] runOf(String... segments) {
        byte[] tlv = NodePath.of("/" + String.join("/", segments)).tlv();
        return Arrays.copyOfRange(tlv, 4, tlv.length);
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}
