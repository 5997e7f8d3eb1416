package io.spectrum.link.udp;

import io.spectrum.link.FrameSink;
import io.spectrum.link.Link;
import io.spectrum.testing.Frames;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.WireError;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * {@link UdpLink#pollInto}: each datagram is written once, straight into the buffer the sink supplies,
 * on the batched path and on the channel path; a datagram the link discards (not one frame) is written
 * and never handed over, so the sink's buffer serves the next one; counters and peers as for poll.
 */
class UdpPollIntoTest {
    private final List<AutoCloseable> open = new ArrayList<>();
    private final ManualClock clock = new ManualClock(0);

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    /** A sink with one buffer per frame it takes in, in order; the buffer it answered is what it records. */
    static final class Buffers implements FrameSink {
        final List<byte[]> taken = new ArrayList<>();
        final List<Integer> peers = new ArrayList<>();
        byte[] current;
        int asked;

        @Override
        public byte[] frameBuffer(int len) {
            asked++;
            if (current == null) {
                current = new byte[2048];
            }
            return current;
        }

        @Override
        public void onFrameIn(Link link, int peer, int len) {
            taken.add(current);
            peers.add(peer);
            current = null;
        }
    }

    private void receivesIntoTheSinksBuffers(UdpLinkConfig cfg) throws Exception {
        UdpLink server = UdpLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), cfg, clock);
        open.add(server::close);
        UdpLink client = UdpLink.dial(2, server.localAddress(), cfg, clock);
        open.add(client::close);
        byte[] a = Frames.value(1, 16);
        byte[] b = Frames.value(2, 40);
        assertEquals(WireError.OK, client.send(0, a, 0, a.length));
        // noise between the frames: not one frame, so discarded after it was written into the sink's buffer
        try (DatagramChannel raw = DatagramChannel.open()) {
            raw.send(ByteBuffer.wrap(new byte[] {1, 2, 3}), server.localAddress());
        }
        assertEquals(WireError.OK, client.send(0, b, 0, b.length));
        Buffers sink = new Buffers();
        long deadline = System.currentTimeMillis() + 5000;
        while (sink.taken.size() < 2 && System.currentTimeMillis() < deadline) {
            server.pollInto(sink, 16);
        }
        assertEquals(2, sink.taken.size());
        assertArrayEquals(a, Arrays.copyOf(sink.taken.get(0), a.length));
        assertArrayEquals(b, Arrays.copyOf(sink.taken.get(1), b.length));
        assertEquals(sink.peers.get(0), sink.peers.get(1), "one sender, one peer");
        assertEquals(3, sink.asked, "asked once per datagram: the noise reused the buffer the second frame then went into");
        assertEquals(1, server.stats().droppedInvalid());
        assertEquals(2, server.stats().framesIn());
    }

    @Test
    void theBatchedPathWritesEachDatagramOnceIntoTheSinksBuffer() throws Exception {
        receivesIntoTheSinksBuffers(new UdpLinkConfig());
    }

    @Test
    void theChannelPathWritesEachDatagramOnceIntoTheSinksBuffer() throws Exception {
        receivesIntoTheSinksBuffers(new UdpLinkConfig().batch(0));
    }

    @Test
    void theSinksBufferIsTheOneHandedOver() throws Exception {
        UdpLink server = UdpLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), new UdpLinkConfig(), clock);
        open.add(server::close);
        UdpLink client = UdpLink.dial(2, server.localAddress(), new UdpLinkConfig(), clock);
        open.add(client::close);
        byte[] a = Frames.value(7, 8);
        client.send(0, a, 0, a.length);
        Buffers sink = new Buffers();
        byte[] mine = new byte[64];
        sink.current = mine;
        long deadline = System.currentTimeMillis() + 5000;
        while (sink.taken.isEmpty() && System.currentTimeMillis() < deadline) {
            server.pollInto(sink, 1);
        }
        assertSame(mine, sink.taken.get(0));
    }
}
