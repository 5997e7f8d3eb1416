package io.spectrum.link.udp.mmsg;

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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Runs of datagrams to one destination leave as one segmented send, and arrive as the datagrams they
 * were: same bytes, same lengths, same order; shorter runs, other lengths and other destinations leave
 * one datagram a message.
 */
class MmsgSegmentedSendTest {
    private static void assumeAvailable() {
        assumeTrue(MmsgSocket.unavailableReason() == null, "batched I/O unavailable: " + MmsgSocket.unavailableReason());
    }

    /** {@code m} with runs of {@code run} on, or the test skipped where the kernel lacks UDP_SEGMENT. */
    private static MmsgSocket withRuns(MmsgSocket m, int run) {
        m.segmentRuns(run);
        assumeTrue(m.segmentRuns() == run, "the kernel does not know UDP_SEGMENT (Linux 4.18 and later)");
        return m;
    }

    private static DatagramChannel bound() throws Exception {
        DatagramChannel c = DatagramChannel.open();
        c.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        return c;
    }

    private static byte[] datagram(int tag, int len) {
        byte[] b = new byte[len];
        Arrays.fill(b, (byte) tag);
        b[0] = (byte) len;
        return b;
    }

    private static void queueTo(MmsgSocket m, DatagramChannel to, byte[] b) throws Exception {
        InetSocketAddress a = (InetSocketAddress) to.getLocalAddress();
        assertEquals(true, m.queue(true, MmsgSocket.keyHi(a.getAddress()), MmsgSocket.keyLo(a.getAddress()), a.getPort(),
                MmsgSocket.keyScope(a.getAddress()), b, 0, b.length));
    }

    /** Every datagram waiting on {@code c}, in arrival order (a blocking read per expected datagram). */
    private static List<byte[]> read(DatagramChannel c, int expected) throws Exception {
        List<byte[]> got = new ArrayList<>();
        ByteBuffer in = ByteBuffer.allocate(2048);
        c.configureBlocking(false);
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (got.size() < expected && System.nanoTime() < deadline) {
            in.clear();
            if (c.receive(in) != null) {
                in.flip();
                byte[] b = new byte[in.remaining()];
                in.get(b);
                got.add(b);
            } else {
                Thread.onSpinWait();
            }
        }
        in.clear();
        assertEquals(null, c.receive(in), "no datagram beyond those sent");
        return got;
    }

    private static void sendTheMix(MmsgSocket m, DatagramChannel r1, DatagramChannel r2, List<byte[]> to1, List<byte[]> to2)
            throws Exception {
        for (int i = 0; i < 10; i++) { // a run of ten to r1, then a shorter last one: one run of 11
            to1.add(datagram(i + 1, 20));
        }
        to1.add(datagram(99, 7));
        for (int i = 0; i < 3; i++) { // three shorter ones to r2: fewer than a run, and the next is longer
            to2.add(datagram(40 + i, 10));
        }
        for (int i = 0; i < 5; i++) { // five to r2 of one length: a run
            to2.add(datagram(50 + i, 20));
        }
        for (byte[] b : to1) {
            queueTo(m, r1, b);
        }
        for (byte[] b : to2) {
            queueTo(m, r2, b);
        }
    }

    private static void assertArrived(List<byte[]> sent, List<byte[]> got) {
        assertEquals(sent.size(), got.size());
        for (int i = 0; i < sent.size(); i++) {
            assertArrayEquals(sent.get(i), got.get(i), "datagram " + i);
        }
    }

    @Test
    void runsToOnePeerLeaveAsOneSendEach_andArriveAsTheDatagramsTheyWere() throws Exception {
        assumeAvailable();
        try (DatagramChannel a = bound(); DatagramChannel r1 = bound(); DatagramChannel r2 = bound()) {
            MmsgSocket m = withRuns(MmsgSocket.attach(a, 32, 64, 64), 4);
            List<byte[]> to1 = new ArrayList<>();
            List<byte[]> to2 = new ArrayList<>();
            sendTheMix(m, r1, r2, to1, to2);
            long calls = m.calls();
            assertEquals(19, m.flush());
            assertEquals(0, m.flushFailed());
            assertEquals(10 * 20 + 7 + 3 * 10 + 5 * 20, m.flushedBytes());
            assertEquals(2, m.segmentedSends(), "r1's eleven and r2's five, each one message");
            assertEquals(calls + 1, m.calls(), "five messages, one sendmmsg");
            assertArrived(to1, read(r1, to1.size()));
            assertArrived(to2, read(r2, to2.size()));
        }
    }

    @Test
    void withSegmentedSendsOff_everyDatagramIsItsOwnMessage_andTheSameArrives() throws Exception {
        assumeAvailable();
        try (DatagramChannel a = bound(); DatagramChannel r1 = bound(); DatagramChannel r2 = bound()) {
            MmsgSocket m = MmsgSocket.attach(a, 32, 64, 64);
            assertEquals(0, m.segmentRuns(), "off unless asked");
            List<byte[]> to1 = new ArrayList<>();
            List<byte[]> to2 = new ArrayList<>();
            sendTheMix(m, r1, r2, to1, to2);
            assertEquals(19, m.flush());
            assertEquals(0, m.segmentedSends());
            assertArrived(to1, read(r1, to1.size()));
            assertArrived(to2, read(r2, to2.size()));
        }
    }

    @Test
    void aConnectedSocketsRunToItsPeerIsOneSend() throws Exception {
        assumeAvailable();
        try (DatagramChannel r = bound(); DatagramChannel a = bound()) {
            a.connect(r.getLocalAddress());
            MmsgSocket m = withRuns(MmsgSocket.attach(a, 16, 64, 64), 16);
            List<byte[]> sent = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                byte[] b = datagram(i + 1, 12);
                sent.add(b);
                m.queue(false, 0, 0, 0, 0, b, 0, b.length);
            }
            assertEquals(16, m.flush());
            assertEquals(1, m.segmentedSends());
            assertArrived(sent, read(r, 16));
            // fifteen is shorter than the run asked for: one datagram a message
            for (int i = 0; i < 15; i++) {
                m.queue(false, 0, 0, 0, 0, sent.get(i), 0, 12);
            }
            assertEquals(15, m.flush());
            assertEquals(1, m.segmentedSends());
            assertArrived(sent.subList(0, 15), read(r, 15));
        }
    }

    @Test
    void aRunOutOfRangeIsRefused() throws Exception {
        assumeAvailable();
        try (DatagramChannel a = bound()) {
            MmsgSocket m = MmsgSocket.attach(a, 4, 64, 64);
            assertThrows(IllegalArgumentException.class, () -> m.segmentRuns(1));
            assertThrows(IllegalArgumentException.class, () -> m.segmentRuns(MmsgSocket.MAX_SEGMENTS + 1));
            assertEquals(0, m.segmentRuns(0).segmentRuns());
        }
    }
}
