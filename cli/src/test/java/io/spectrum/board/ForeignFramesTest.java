package io.spectrum.board;

import io.spectrum.link.Link;
import io.spectrum.link.serial.CobsDeframer;
import io.spectrum.link.serial.CobsFramer;
import io.spectrum.link.serial.InMemorySerialPort;
import io.spectrum.link.serial.SerialLink;
import io.spectrum.link.serial.SerialLinkConfig;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.Arrays;
import java.util.function.Consumer;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Frames that pass the link's checks but carry bad FWD contents: each gets a typed ERROR reply or
 * is dropped and counted, and the node keeps serving a well-behaved peer on the same link.
 */
class ForeignFramesTest {
    static final NodePath TEMP = NodePath.of("/temp");
    static final NodePath REPLY = NodePath.of("/rogue/reply");

    static byte[] fwd(int op, NodePath dst, NodePath src, byte[] payload) {
        byte[] b = new byte[256];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FWD).value(op, 1).raw(dst.tlv()).raw(src.tlv());
        if (payload != null) {
            w.raw(payload);
        }
        w.end();
        assertEquals(WireError.OK, w.error());
        return Arrays.copyOf(b, w.length());
    }

    /** The error code of a FWD REPLY of kind ERROR, or -1 if the frame is not one. */
    static int errorOf(byte[] reply) {
        TlvIndex x = new TlvIndex();
        if (new FrameDecoder().decode(reply, 0, reply.length, x) != WireError.OK || x.type(0) != TlvType.FWD) {
            return -1;
        }
        if (x.valueAsLong(x.child(0, 0)) != 3 || x.valueAsLong(x.child(0, 3)) != 1) {
            return -1;
        }
        int status = x.child(0, 4);
        int error = x.firstChild(status);
        return (int) x.valueAsLong(x.firstChild(error));
    }

    private void scenario(NarrowNode board, Link boardLink, Consumer<byte[]> rogueSend, Supplier<byte[]> rogueReceive,
                          Runnable pump, LinkedNodes good) throws Exception {
        byte[] v = {0x01, 0x00, 0x02, 0x00, 0x66, 0x08};
        board.write(TEMP, v, 0, v.length);

        rogueSend.accept(fwd(5, TEMP, REPLY, null));                        // unknown op
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, errorOf(await(rogueReceive, pump)));
        rogueSend.accept(fwd(0, NodePath.of("/nothing"), REPLY, null)); // READ of an absent vertex
        assertEquals(WireError.PATH_NOT_FOUND, errorOf(await(rogueReceive, pump)));
        rogueSend.accept(fwd(1, NodePath.of("/$node/caps"), REPLY, v));     // remote write to a $ name
        assertEquals(WireError.ACCESS_DENIED, errorOf(await(rogueReceive, pump)));
        rogueSend.accept(fwd(1, TEMP, REPLY, null));                        // WRITE without a payload
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, errorOf(await(rogueReceive, pump)));

        long rejectedBefore = board.linkStats(boardLink).framesRejected();
        // One frame by its outer header, but its child claims more bytes than the container holds.
        rogueSend.accept(new byte[] {0x0F, 0x40, 0x05, 0x00, 0x01, 0x00, 0x09, 0x00, 0x00});
        // A REPLY arriving as a request: dropped silently (no answer).
        rogueSend.accept(fwd(3, TEMP, REPLY, new byte[] {0x01, 0x00, 0x01, 0x00, 0x00}));
        for (int i = 0; i < 20; i++) {
            pump.run();
        }
        assertNull(rogueReceive.get(), "nothing answered to either");
        assertEquals(rejectedBefore + 1, board.linkStats(boardLink).framesRejected(), "the undecodable frame is counted");
        byte[] current = new byte[16];
        assertEquals(6, board.read(TEMP, current, 0, 16));
        assertEquals(0x66, current[4], "nothing changed");

        // A well-behaved peer on the same link is served as usual.
        int h = good.host.subscribeRemote(good.hostLink, 0, TEMP, NodePath.of("/m/temp"), 1 << 5);
        assertTrue(h >= 0);
        assertTrue(good.pumpUntilAdvancing(() -> good.host.remote().state(h) == io.spectrum.node.fwd.RemoteClient.ACKED));
        byte[] out = new byte[16];
        assertTrue(good.pumpUntil(() -> good.host.read(NodePath.of("/m/temp"), out, 0, 16) == 6));
    }

    private static byte[] await(Supplier<byte[]> receive, Runnable pump) {
        for (int i = 0; i < 2000; i++) {
            pump.run();
            byte[] r = receive.get();
            if (r != null) {
                return r;
            }
            if (i > 20) {
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        throw new AssertionError("no reply");
    }

    @Test
    void overUdp() throws Exception {
        try (LinkedNodes good = new LinkedNodes(); DatagramChannel rogue = DatagramChannel.open()) {
            UdpLinkConfig cfg = new UdpLinkConfig();
            UdpLink boardLink = UdpLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), cfg, good.clock);
            good.join(boardLink, UdpLink.dial(2, boardLink.localAddress(), cfg, good.clock));
            rogue.configureBlocking(false);
            rogue.connect(boardLink.localAddress());
            ByteBuffer in = ByteBuffer.allocate(65536);
            scenario(good.board, boardLink,
                    f -> {
                        try {
                            rogue.write(ByteBuffer.wrap(f));
                        } catch (java.io.IOException e) {
                            throw new IllegalStateException(e);
                        }
                    },
                    () -> {
                        try {
                            in.clear();
                            if (rogue.read(in) <= 0) {
                                return null;
                            }
                            return Arrays.copyOf(in.array(), in.position());
                        } catch (java.io.IOException e) {
                            throw new IllegalStateException(e);
                        }
                    },
                    () -> {
                        good.board.poll();
                        good.board.tick();
                    }, good);
            assertEquals(2, boardLink.peerTable().inUse(), "two peers on one socket: the rogue and the good host");
        }
    }

    @Test
    void overSerial() throws Exception {
        // The board has two serial lines: one to a rogue sender, one to a good host.
        try (LinkedNodes good = new LinkedNodes()) {
            ManualClock clock = good.clock;
            InMemorySerialPort[] goodLine = InMemorySerialPort.pair("good", 1 << 16);
            InMemorySerialPort[] rogueLine = InMemorySerialPort.pair("rogue", 1 << 16);
            SerialLinkConfig cfg = new SerialLinkConfig();
            good.join(new SerialLink(1, goodLine[0], cfg, clock), new SerialLink(2, goodLine[1], cfg, clock));
            SerialLink rogueSide = new SerialLink(3, rogueLine[0], cfg, clock);
            good.board.attach(rogueSide);
            InMemorySerialPort rogue = rogueLine[1];
            rogue.open();
            CobsDeframer deframer = new CobsDeframer(4096);
            byte[] wire = new byte[8192];
            byte[] rx = new byte[4096];
            int[] pending = {0, 0};
            scenario(good.board, rogueSide,
                    f -> {
                        int n = CobsFramer.encode(f, 0, f.length, wire, 0, wire.length);
                        rogue.write(wire, 0, n);
                    },
                    () -> {
                        while (true) {
                            if (pending[0] == pending[1]) {
                                int n = rogue.read(rx, 0, rx.length);
                                if (n <= 0) {
                                    return null;
                                }
                                pending[0] = 0;
                                pending[1] = n;
                            }
                            pending[0] += deframer.consume(rx, pending[0], pending[1] - pending[0]);
                            if (deframer.hasFrame()) {
                                return Arrays.copyOf(deframer.frame(), deframer.frameLength());
                            }
                        }
                    },
                    () -> {
                        good.board.poll();
                        good.board.tick();
                    }, good);
            assertNotNull(rogueSide.name());
            rogueSide.close();
        }
    }
}
