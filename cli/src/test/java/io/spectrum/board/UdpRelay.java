package io.spectrum.board;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

/**
 * A UDP relay between a dialer and a listener that can be cut (every datagram dropped both ways),
 * to make a network partition both ends notice only by silence. Pumped from the test thread.
 */
final class UdpRelay implements AutoCloseable {
    private final DatagramChannel front;
    private final DatagramChannel back;
    private final ByteBuffer buf = ByteBuffer.allocate(65536);
    private SocketAddress client;
    boolean cut;

    UdpRelay(InetSocketAddress server) throws IOException {
        front = DatagramChannel.open();
        front.configureBlocking(false);
        front.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        back = DatagramChannel.open();
        back.configureBlocking(false);
        back.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        back.connect(server);
    }

    InetSocketAddress address() throws IOException {
        return (InetSocketAddress) front.getLocalAddress();
    }

    void pump() {
        try {
            while (true) {
                buf.clear();
                SocketAddress from = front.receive(buf);
                if (from == null) {
                    break;
                }
                client = from;
                buf.flip();
                if (!cut) {
                    back.write(buf);
                }
            }
            while (true) {
                buf.clear();
                if (back.read(buf) <= 0) {
                    break;
                }
                buf.flip();
                if (!cut && client != null) {
                    front.send(buf, client);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() throws IOException {
        front.close();
        back.close();
    }
}
