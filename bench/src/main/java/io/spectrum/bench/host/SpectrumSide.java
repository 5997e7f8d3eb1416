package io.spectrum.bench.host;

import io.spectrum.runtime.LinkSpec;
import io.spectrum.runtime.LinkSettings;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Requests;
import io.spectrum.client.Subscribed;
import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.Readiness;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.WireError;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The Spectrum side: a {@link BenchHost} JVM on a UDP or TCP port ({@code transport}), N subscribers
 * that are each a real link of that transport (one socket each, opened by {@link LinkSpec#dial}) subscribed through the client module's
 * {@link PeerClient} (a SUBSCRIBER appended to {@code /bench/v:subscribers[]}), and a publisher
 * that sends FWD WRITEs of the vertex with an empty src (an empty src asks for no reply), as MQTT QoS
 * 0 publishes are not acknowledged. One receiver thread, woken by a selector, counts the FWD WRITE
 * deliveries arriving on the N sockets (decoded with the wire package's FrameDecoder/FwdView).
 */
final class SpectrumSide implements Side {
    private static final String ROUTE = "/sub/";
    private final Process host;
    private final String core;
    private final String transport;
    private final List<Link> subscribers = new ArrayList<>();
    private final Link publisher;
    private final byte[] dst = Requests.path(BenchHost.VERTEX);
    private final byte[] noReply = Requests.path("/");
    private final Selector selector;
    private final Thread receiver;
    private volatile boolean running = true;
    private volatile long delivered;
    private final Counter replies = new Counter(FwdView.OP_REPLY);
    private final int slowPerSecond;
    private Thread slowReader;
    private volatile long slowDelivered;

    SpectrumSide(String core, int subscriberCount) throws IOException {
        this(core, "udp", subscriberCount, 0);
    }

    /** As {@link #SpectrumSide(String, int)}, on {@code transport} ({@code udp} or {@code tcp}). */
    SpectrumSide(String core, String transport, int subscriberCount) throws IOException {
        this(core, transport, subscriberCount, 0);
    }

    /** As {@link #SpectrumSide(String, String, int, int)} on UDP. */
    SpectrumSide(String core, int subscriberCount, int slowPerSecond) throws IOException {
        this(core, "udp", subscriberCount, slowPerSecond);
    }

    /**
     * As {@link #SpectrumSide(String, int)}; with {@code slowPerSecond > 0} one more subscriber is
     * slow: its socket (64 KiB receive buffer) is read by a thread of its own at most
     * {@code slowPerSecond} frames a second and is not counted in {@link #delivered()} (UDP only).
     */
    SpectrumSide(String core, String transport, int subscriberCount, int slowPerSecond) throws IOException {
        if (!transport.equals("udp") && !transport.equals("tcp")) {
            throw new IllegalArgumentException("transport: udp or tcp, not " + transport);
        }
        if (slowPerSecond > 0 && !transport.equals("udp")) {
            throw new IllegalArgumentException("the slow subscriber is a UDP socket");
        }
        this.core = core;
        this.transport = transport;
        this.slowPerSecond = slowPerSecond;
        int port = transport.equals("udp") ? Ports.freeUdp() : Ports.freeTcp();
        List<String> flags = new ArrayList<>(List.of("-Xms256m", "-Xmx256m"));
        String extra = System.getProperty("bench.hostJvmArgs", "").strip(); // e.g. a JFR recording
        if (!extra.isEmpty()) {
            flags.addAll(List.of(extra.split("\\s+")));
        }
        host = ServerJvm.start(flags, BenchHost.class, String.valueOf(port), core, transport);
        String uri = transport + "://127.0.0.1:" + port;
        selector = Selector.open();
        for (int i = 0; i < subscriberCount; i++) {
            Link link = LinkSpec.dial(100 + i, uri, LinkSettings.clientDefaults(), SystemClock.INSTANCE);
            Subscribed s = new PeerClient(link, 0, Duration.ofSeconds(5)).subscribe(BenchHost.VERTEX, ROUTE + i, -1, false);
            if (!s.ok()) {
                throw new IllegalStateException("subscriber " + i + " refused: " + WireError.identity(s.code()));
            }
            link.setReadiness(new Watch(selector, link));
            subscribers.add(link);
        }
        if (slowPerSecond > 0) {
            Link slow = LinkSpec.dial(100 + subscriberCount, uri,
                    LinkSettings.clientDefaults().receiveBufferBytes(64 * 1024), SystemClock.INSTANCE);
            Subscribed s = new PeerClient(slow, 0, Duration.ofSeconds(5)).subscribe(BenchHost.VERTEX, ROUTE + "slow", -1, false);
            if (!s.ok()) {
                throw new IllegalStateException("the slow subscriber was refused: " + WireError.identity(s.code()));
            }
            subscribers.add(slow);
            slowReader = new Thread(() -> readSlowly(slow), "slow-subscriber");
            slowReader.setDaemon(true);
            slowReader.start();
        }
        publisher = LinkSpec.dial(99, uri, LinkSettings.clientDefaults(), SystemClock.INSTANCE);
        receiver = new Thread(this::receive, "spectrum-subscribers");
        receiver.setDaemon(true);
        receiver.start();
    }

    @Override
    public String name() {
        return "spectrum-" + core + (transport.equals("udp") ? "" : "-" + transport) + (slowPerSecond > 0 ? "+slow" : "");
    }

    /** Deliveries the slow subscriber read (0 without one). */
    long slowDelivered() {
        return slowDelivered;
    }

    private void readSlowly(Link link) {
        Counter counter = new Counter(FwdView.OP_WRITE);
        long pause = 1_000_000_000L / slowPerSecond;
        while (running) {
            link.poll(counter, 1);
            slowDelivered = counter.counted;
            java.util.concurrent.locks.LockSupport.parkNanos(pause);
        }
    }

    @Override
    public long serverPid() {
        return host.pid();
    }

    @Override
    public long delivered() {
        return delivered;
    }

    @Override
    public void publish(byte[] payload) {
        byte[] frame = Requests.fwd(FwdView.OP_WRITE, dst, null, noReply, payload);
        publisher.send(0, frame, 0, frame.length);
        publisher.poll(replies, 16); // answers the publisher did not ask for would mean the empty src was not honoured
    }

    /** Replies the publisher received; 0 when the empty src works. */
    long unexpectedReplies() {
        return replies.counted;
    }

    private void receive() {
        Counter counter = new Counter(FwdView.OP_WRITE);
        try {
            while (running) {
                selector.select(k -> ((Link) k.attachment()).poll(counter, 256), 100);
                delivered = counter.counted;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        running = false;
        selector.wakeup();
        try {
            receiver.join(1000);
            if (slowReader != null) {
                slowReader.join(1000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Link l : subscribers) {
            l.close();
        }
        publisher.close();
        try {
            selector.close();
        } catch (IOException e) {
            // closing anyway
        }
        ServerJvm.stop(host);
    }

    /** Counts the FWD frames of one opcode (WRITE: deliveries; a liveness probe is a READ and is not counted). */
    static final class Counter implements FrameHandler {
        private final FrameDecoder decoder = new FrameDecoder();
        private final TlvIndex index = new TlvIndex(64, 8);
        private final FwdView fwd = new FwdView();
        private final int opcode;
        long counted;

        Counter(int opcode) {
            this.opcode = opcode;
        }

        @Override
        public void onFrame(Link link, int peer, byte[] buf, int off, int len) {
            if (decoder.decode(buf, off, len, index) == WireError.OK && fwd.wrap(index, 0) == WireError.OK
                    && fwd.opcode() == opcode) {
                counted++;
            }
        }
    }

    /** Registers one link's channel with a receiver's selector, {@code attachment} (the link, or its reader) as the key's. */
    record Watch(Selector selector, Object attachment) implements Readiness {
        @Override
        public boolean watch(Object channel) {
            try {
                ((SelectableChannel) channel).register(selector, SelectionKey.OP_READ, attachment);
                return true;
            } catch (IOException e) {
                return false;
            }
        }

        @Override
        public void wake() {
            selector.wakeup();
        }
    }
}
