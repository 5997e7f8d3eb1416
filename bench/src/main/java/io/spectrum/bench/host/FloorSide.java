package io.spectrum.bench.host;

import io.spectrum.client.Requests;
import io.spectrum.wire.FwdView;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.List;

/**
 * The UDP floor as a {@link Side}: a {@link UdpRelay} JVM, N plain datagram sockets that said hello
 * to it, and a publisher sending the very frames the Spectrum publisher sends. What the host costs
 * per delivery above this side's figure is the node's own work.
 */
final class FloorSide implements Side {
    private final Process relay;
    private final List<DatagramChannel> receivers = new ArrayList<>();
    private final DatagramChannel publisher;
    private final Selector selector;
    private final Thread receiver;
    private final byte[] dst = Requests.path(BenchHost.VERTEX);
    private final byte[] noReply = Requests.path("/");
    private volatile boolean running = true;
    private volatile long delivered;

    /** {@code on}, {@code batched} or {@code segmented}: how the relay sends ({@link UdpRelay}). */
    private final String mode;

    FloorSide(int subscriberCount) throws IOException {
        this(subscriberCount, "on");
    }

    /**
     * A floor whose relay sends each datagram by itself ({@code on}), {@code sendmmsg} at a time
     * ({@code batched}), or each receiver's waiting frames as one run, segmented as a UDP link sends a
     * run ({@code segmented}).
     */
    FloorSide(int subscriberCount, String mode) throws IOException {
        if (!mode.equals("on") && !mode.equals("batched") && !mode.equals("segmented")) {
            throw new IllegalArgumentException("floor: on, batched, segmented or off, not " + mode);
        }
        this.mode = mode;
        int port = Ports.freeUdp();
        relay = mode.equals("on")
                ? ServerJvm.start(List.of("-Xms64m", "-Xmx64m"), UdpRelay.class, String.valueOf(port))
                : ServerJvm.start(List.of("-Xms64m", "-Xmx64m"), UdpRelay.class, String.valueOf(port), mode);
        InetSocketAddress at = new InetSocketAddress("127.0.0.1", port);
        selector = Selector.open();
        for (int i = 0; i < subscriberCount; i++) {
            DatagramChannel c = DatagramChannel.open();
            c.bind(new InetSocketAddress("127.0.0.1", 0));
            c.configureBlocking(false);
            c.send(ByteBuffer.wrap(new byte[] {UdpRelay.HELLO}), at);
            c.register(selector, SelectionKey.OP_READ);
            receivers.add(c);
        }
        publisher = DatagramChannel.open();
        publisher.connect(at);
        receiver = new Thread(this::receive, "floor-receivers");
        receiver.setDaemon(true);
        receiver.start();
    }

    @Override
    public String name() {
        return switch (mode) {
            case "batched" -> "udp-floor-mmsg";
            case "segmented" -> "udp-floor-runs";
            default -> "udp-floor";
        };
    }

    @Override
    public long serverPid() {
        return relay.pid();
    }

    @Override
    public long delivered() {
        return delivered;
    }

    @Override
    public void publish(byte[] payload) {
        try {
            publisher.write(ByteBuffer.wrap(Requests.fwd(FwdView.OP_WRITE, dst, null, noReply, payload)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void receive() {
        ByteBuffer b = ByteBuffer.allocateDirect(65536);
        long[] n = new long[1];
        try {
            while (running) {
                selector.select(k -> {
                    try {
                        DatagramChannel c = (DatagramChannel) k.channel();
                        while (true) {
                            b.clear();
                            if (c.receive(b) == null) {
                                break;
                            }
                            n[0]++;
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }, 100);
                delivered = n[0];
            }
        } catch (IOException | UncheckedIOException e) {
            if (running) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Override
    public void close() {
        running = false;
        selector.wakeup();
        try {
            receiver.join(1000);
            for (DatagramChannel c : receivers) {
                c.close();
            }
            publisher.close();
            selector.close();
        } catch (IOException e) {
            // closing anyway
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        ServerJvm.stop(relay);
    }
}
