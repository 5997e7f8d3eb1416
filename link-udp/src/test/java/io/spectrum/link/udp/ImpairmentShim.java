package io.spectrum.link.udp;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A seeded userspace UDP impairment relay (the kernel here has no netem): datagrams from the client
 * side are dropped, duplicated or held back and released out of order, then forwarded to the
 * server; the server's answers go back untouched. Driven by {@link #pump} from the test thread, so a
 * run is reproducible from its seed.
 */
final class ImpairmentShim implements AutoCloseable {
    private final DatagramChannel front;
    private final DatagramChannel back;
    private final Random random;
    private final int dropPercent;
    private final int duplicatePercent;
    private final int holdPercent;
    private final List<byte[]> held = new ArrayList<>();
    private final ByteBuffer buf = ByteBuffer.allocate(65536);
    private SocketAddress client;
    int dropped;
    int duplicated;
    int reordered;
    int forwarded;

    ImpairmentShim(InetSocketAddress server, long seed, int dropPercent, int duplicatePercent, int holdPercent)
            throws IOException {
        this.random = new Random(seed);
        this.dropPercent = dropPercent;
        this.duplicatePercent = duplicatePercent;
        this.holdPercent = holdPercent;
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

    /** Moves whatever is waiting in both directions; impairs the client-to-server direction. */
    void pump() throws IOException {
        while (true) {
            buf.clear();
            SocketAddress from = front.receive(buf);
            if (from == null) {
                break;
            }
            client = from;
            buf.flip();
            byte[] d = new byte[buf.remaining()];
            buf.get(d);
            int roll = random.nextInt(100);
            if (roll < dropPercent) {
                dropped++;
                continue;
            }
            if (random.nextInt(100) < holdPercent) {
                held.add(d);
                continue;
            }
            forward(d);
            if (random.nextInt(100) < duplicatePercent) {
                duplicated++;
                forward(d);
            }
            // Release held datagrams late, in random order: they now overtake nothing but are overtaken.
            if (!held.isEmpty() && random.nextInt(4) == 0) {
                byte[] late = held.remove(random.nextInt(held.size()));
                reordered++;
                forward(late);
            }
        }
        while (true) {
            buf.clear();
            if (back.read(buf) <= 0) {
                break;
            }
            buf.flip();
            if (client != null) {
                front.send(buf, client);
            }
        }
    }

    /** Releases everything still held (the network "settles"). */
    void flush() throws IOException {
        while (!held.isEmpty()) {
            reordered++;
            forward(held.remove(random.nextInt(held.size())));
        }
    }

    private void forward(byte[] d) throws IOException {
        back.write(ByteBuffer.wrap(d));
        forwarded++;
    }

    @Override
    public void close() throws IOException {
        front.close();
        back.close();
    }
}
