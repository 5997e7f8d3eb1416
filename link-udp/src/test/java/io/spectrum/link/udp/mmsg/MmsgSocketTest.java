package io.spectrum.link.udp.mmsg;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Finding a channel's descriptor, and the refusals that keep the link on its channel path. */
class MmsgSocketTest {
    private static void assumeAvailable() {
        assumeTrue(MmsgSocket.unavailableReason() == null, "batched I/O unavailable: " + MmsgSocket.unavailableReason());
    }

    @Test
    void theDescriptorFoundIsTheChannelsOwn() throws Exception {
        assumeAvailable();
        try (DatagramChannel a = DatagramChannel.open(); DatagramChannel b = DatagramChannel.open()) {
            a.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            b.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            MmsgSocket m = MmsgSocket.attach(a, 4, 64, 64);
            // what b sends to a arrives through the descriptor attach found
            b.send(ByteBuffer.wrap(new byte[] {1, 2, 3}), a.getLocalAddress());
            assertEquals(1, m.receive());
            assertEquals(3, m.length(0));
            byte[] got = new byte[3];
            m.copy(0, got, 3);
            assertEquals(2, got[1]);
            InetSocketAddress from = (InetSocketAddress) b.getLocalAddress();
            assertEquals(from, m.sender(0));
            assertEquals(MmsgSocket.keyLo(from.getAddress()), m.senderLo(0));
            assertEquals(from.getPort(), m.senderPort(0));
            assertEquals(0, m.receive()); // nothing more waiting: no error
        }
    }

    @Test
    void twoSocketsOnOneAddressAreRefused() throws Exception {
        assumeAvailable();
        try (DatagramChannel a = DatagramChannel.open(); DatagramChannel b = DatagramChannel.open()) {
            a.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            b.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            a.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            b.bind(a.getLocalAddress());
            IOException e = assertThrows(IOException.class, () -> MmsgSocket.attach(a, 4, 64, 64));
            assertTrue(e.getMessage().contains("share"), e.getMessage());
        }
    }

    @Test
    void anUnboundChannelIsRefused() throws Exception {
        assumeAvailable();
        try (DatagramChannel a = DatagramChannel.open()) {
            assertThrows(IOException.class, () -> MmsgSocket.attach(a, 4, 64, 64));
        }
    }

    @Test
    void aBatchOutOfRangeIsRefused() throws Exception {
        assumeAvailable();
        try (DatagramChannel a = DatagramChannel.open()) {
            a.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            assertThrows(IllegalArgumentException.class, () -> MmsgSocket.attach(a, 0, 64, 64));
            assertThrows(IllegalArgumentException.class, () -> MmsgSocket.attach(a, MmsgSocket.MAX_BATCH + 1, 64, 64));
        }
    }
}
