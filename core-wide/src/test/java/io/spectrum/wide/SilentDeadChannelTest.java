package io.spectrum.wide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Lane;
import io.spectrum.link.Link;
import io.spectrum.link.LinkStats;
import io.spectrum.link.PeerListener;
import io.spectrum.link.local.LocalLink;
import io.spectrum.link.local.LocalLinkConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.time.ManualClock;
import io.spectrum.link.local.InProcessLink;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.WireError;
import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A remote subscriber whose channel dies silently (its link closes it but never tells the node: the
 * departure is lost) is noticed by the next publish that cannot reach it and by the periodic sweep
 * on the node's clock; its subscription goes and the last publisher is told idle exactly once
 * (docs/node.md, "A subscriber's channel gone"). Over the in-process transport and a Unix socket.
 */
class SilentDeadChannelTest {
    enum Via { IN_PROCESS, UNIX_SOCKET }

    static final long SWEEP = 1_000_000_000L;
    final ManualClock clock = new ManualClock(0);
    final WideNode node = new WideNode(WideNode.hostConfig().clock(clock).channelSweepNanos(SWEEP).build());
    final NodePath t = NodePath.of("/t");
    final WidePeer producer = node.connect("producer");
    final List<String> notices = AbpProfileTest.notices(producer);
    final List<AutoCloseable> closing = new ArrayList<>();
    Path dir;
    SilentLink server;
    /** Sends a frame as the subscriber, pumps its side; closes its channel. */
    Runnable pumpSubscriber;
    java.util.function.Consumer<byte[]> sendAsSubscriber;
    Runnable killSubscriber;

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
        if (dir != null) {
            try (var files = Files.list(dir)) {
                for (Path p : (Iterable<Path>) files::iterator) {
                    Files.deleteIfExists(p);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    void connect(Via via) throws IOException {
        if (via == Via.IN_PROCESS) {
            InProcessLink link = new InProcessLink(1, 1 << 16, 1 << 24);
            server = new SilentLink(link);
            InProcessLink.End end = link.connect("viewer");
            sendAsSubscriber = f -> assertEquals(WireError.OK, end.send(f, 0, f.length));
            pumpSubscriber = () -> {
                while (end.poll() != null) {
                    // answers and deliveries: the test reads the node's tables
                }
            };
            killSubscriber = end::close;
        } else {
            dir = Files.createTempDirectory("silent");
            LocalLink listener = LocalLink.listen(1, UnixDomainSocketAddress.of(dir.resolve("node.sock")),
                    new LocalLinkConfig(), clock);
            closing.add(listener::close);
            server = new SilentLink(listener);
            LocalLink client = LocalLink.connect(2, listener.localAddress(), "viewer", new LocalLinkConfig(), clock);
            closing.add(client::close);
            FrameHandler ignore = (l, p, b, o, n) -> { };
            sendAsSubscriber = f -> {
                long guard = System.nanoTime() + 20_000_000_000L;
                int rc;
                while ((rc = client.send(0, f, 0, f.length)) != WireError.OK) { // the hello may still be in flight
                    client.poll(ignore, 16);
                    node.poll();
                    assertTrue(System.nanoTime() < guard, "the client never got through: " + rc);
                }
            };
            pumpSubscriber = () -> client.poll(ignore, 64);
            killSubscriber = client::close;
        }
        assertEquals(WireError.OK, node.attach(server));
    }

    /** The subscriber appends a stamped subscription to /t and the node admits it. */
    void subscribe() {
        byte[] ep = NodePath.of("/viewer").tlv();
        sendAsSubscriber.accept(AbpProfileTest.fwd(FwdView.OP_WRITE, t.tlv(), ModeWire.appendField(), ep,
                ModeWire.record(ep)));
        pump(() -> node.listenerCount(t) == 1, "the remote subscription");
        assertEquals(List.of("/t active 1"), notices);
    }

    /** The subscriber's channel closes; its link learns it (EOF, the end closed) but the node is never told. */
    void dieSilently() {
        killSubscriber.run();
        pump(() -> server.swallowed > 0, "the link noticed the channel close (and lost the report)");
        assertTrue(server.inner.isPeerGone(server.lastPeer), "the link knows the channel is gone");
        assertEquals(1, node.listenerCount(t), "silent: the node still counts the subscriber");
        assertEquals(List.of("/t active 1"), notices, "no idle yet");
    }

    void pump(java.util.function.BooleanSupplier done, String what) {
        long guard = System.nanoTime() + 20_000_000_000L;
        while (!done.getAsBoolean()) {
            pumpSubscriber.run();
            if (node.poll() == 0) {
                Thread.onSpinWait();
            }
            assertTrue(System.nanoTime() < guard, "never happened: " + what);
        }
    }

    static int publish(WidePeer p, NodePath path, int v) {
        byte[] b = Tlv.value(v, 1);
        return p.publish(path, b, 0, b.length);
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void silentDeadChannel_theNextPublishThatCannotReachItReapsItAndIdleGoesOnce(Via via) throws IOException {
        assertEquals(WireError.OK, publish(producer, t, 1));
        connect(via);
        subscribe();
        dieSilently();
        assertEquals(WireError.OK, publish(producer, t, 2), "the publish itself succeeds");
        assertEquals(0, node.listenerCount(t), "its send found the channel gone: the subscription is reaped");
        assertEquals(List.of("/t active 1", "/t idle 0"), notices);
        assertEquals(1, node.server().goneHoldersReaped());
        assertEquals(WireError.OK, publish(producer, t, 3));
        for (int i = 0; i < 3; i++) {
            clock.advanceNanos(SWEEP);
            node.tick();
        }
        assertEquals(List.of("/t active 1", "/t idle 0"), notices, "idle exactly once: later publishes and sweeps say nothing");
        assertEquals(1, node.server().goneHoldersReaped());
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void silentDeadChannel_thePeriodicSweepReapsItAndIdleGoesOnce(Via via) throws IOException {
        assertEquals(WireError.OK, publish(producer, t, 1));
        connect(via);
        subscribe();
        dieSilently();
        clock.advanceNanos(SWEEP - 1);
        node.tick();
        assertEquals(1, node.listenerCount(t), "not before the sweep period");
        clock.advanceNanos(1);
        node.tick();
        assertEquals(0, node.listenerCount(t), "the sweep found the channel gone");
        assertEquals(List.of("/t active 1", "/t idle 0"), notices);
        for (int i = 0; i < 3; i++) {
            clock.advanceNanos(SWEEP);
            node.tick();
        }
        assertEquals(WireError.OK, publish(producer, t, 2));
        assertEquals(List.of("/t active 1", "/t idle 0"), notices, "idle exactly once, never again on a later sweep");
        assertEquals(1, node.server().goneHoldersReaped());
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void silentDeadChannel_aLiveSubscriberIsNeverReaped(Via via) throws IOException {
        assertEquals(WireError.OK, publish(producer, t, 1));
        connect(via);
        subscribe();
        for (int i = 0; i < 3; i++) {
            assertEquals(WireError.OK, publish(producer, t, i + 2));
            clock.advanceNanos(SWEEP);
            node.tick();
            pump(() -> true, "");
        }
        assertEquals(1, node.listenerCount(t));
        assertEquals(List.of("/t active 1"), notices);
        assertFalse(server.inner.isPeerGone(server.lastPeer));
    }

    /**
     * A link that loses its departures: everything goes through to the wrapped link except the peer-down
     * report, which never reaches the node (the channel dies silently as far as the node can tell).
     */
    static final class SilentLink implements Link {
        final Link inner;
        int lastPeer = -1;
        int swallowed;

        SilentLink(Link inner) {
            this.inner = inner;
        }

        @Override
        public int id() {
            return inner.id();
        }

        @Override
        public String name() {
            return "silent " + inner.name();
        }

        @Override
        public int send(int peer, byte[] buf, int off, int len) {
            return inner.send(peer, buf, off, len);
        }

        @Override
        public int send(int peer, byte[] buf, int off, int len, Lane lane) {
            return inner.send(peer, buf, off, len, lane);
        }

        @Override
        public String peerName(int peer) {
            return inner.peerName(peer);
        }

        @Override
        public int poll(FrameHandler handler, int maxFrames) {
            return inner.poll((l, p, b, o, n) -> {
                lastPeer = p;
                handler.onFrame(this, p, b, o, n);
            }, maxFrames);
        }

        @Override
        public int maxFrame() {
            return inner.maxFrame();
        }

        @Override
        public void setPeerListener(PeerListener listener) {
            SilentLink self = this;
            inner.setPeerListener(new PeerListener() {
                @Override
                public void onPeerUp(Link link, int peer) {
                    listener.onPeerUp(self, peer);
                }

                @Override
                public void onPeerDown(Link link, int peer) {
                    swallowed++; // lost: the node is never told
                }
            });
        }

        @Override
        public long peerGeneration(int peer) {
            return inner.peerGeneration(peer);
        }

        @Override
        public void disconnect(int peer) {
            inner.disconnect(peer);
        }

        @Override
        public boolean isPeerUp(int peer) {
            return inner.isPeerUp(peer);
        }

        @Override
        public boolean isPeerGone(int peer) {
            return inner.isPeerGone(peer);
        }

        @Override
        public LinkStats stats() {
            return inner.stats();
        }

        @Override
        public void close() {
            inner.close();
        }
    }
}
