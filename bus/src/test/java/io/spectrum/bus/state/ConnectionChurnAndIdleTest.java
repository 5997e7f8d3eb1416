package io.spectrum.bus.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import io.spectrum.wide.Grants;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.link.local.LocalLink;
import io.spectrum.link.local.LocalLinkConfig;
import io.spectrum.time.ManualClock;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import io.spectrum.wire.BusError;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusFields;
import io.spectrum.bus.protocol.BusFrames;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.bus.protocol.BusMessage;
import io.spectrum.bus.protocol.BusWire;
import io.spectrum.bus.server.BusServer;
import io.spectrum.link.local.InProcessLink;

/**
 * Connections over the in-process transport through a {@link BusServer}: handles are reused with a
 * generation so the bus admits connections for its whole life, and idle connections time out on the
 * bus's clock while a pinging one stays.
 */
class ConnectionChurnAndIdleTest {
    private static final long IDLE_MS = 1_000;
    private final ManualClock clock = new ManualClock(0);
    private final MemoryArtifactStore store = new MemoryArtifactStore();
    private HostBus bus;
    private BusServer server;
    private InProcessLink link;
    private long requests;

    private void start(BusLimits limits, int maxEnds) {
        bus = new HostBus(store, clock, limits);
        server = new BusServer(bus, store, id -> Grants.open());
        link = BusServer.inProcessLink(1, maxEnds, BusLimits.defaults());
        server.attach(link);
    }

    /** Sends one request and runs the server until its reply arrives; the events met meanwhile go to {@code events}. */
    private BusFrames.Decoded request(InProcessLink.End end, String command, BusFields body, List<BusMessage> events)
            throws BusException {
        String route = "/t/r/" + (++requests);
        byte[] frame = BusFrames.request(command, route, body);
        assertEquals(io.spectrum.wire.WireError.OK, end.send(frame, 0, frame.length));
        for (int turn = 0; turn < 100; turn++) {
            server.doWork();
            for (byte[] f; (f = end.poll()) != null; ) {
                BusFrames.Decoded d = BusFrames.decode(f, 0, f.length);
                if (d.isReply() && d.dst().equals(route)) {
                    return d;
                }
                if (!d.isReply() && events != null) {
                    events.add(BusWire.message(d.command(), d.fields()));
                }
            }
        }
        throw new AssertionError("no reply to " + command);
    }

    private BusFields ok(InProcessLink.End end, String command, BusFields body) throws BusException {
        BusFrames.Decoded d = request(end, command, body, null);
        if (d.error() != null) {
            throw d.error();
        }
        return d.fields();
    }

    private List<BusMessage> events(InProcessLink.End end) throws BusException {
        List<BusMessage> out = new ArrayList<>();
        for (byte[] f; (f = end.poll()) != null; ) {
            BusFrames.Decoded d = BusFrames.decode(f, 0, f.length);
            if (!d.isReply()) {
                out.add(BusWire.message(d.command(), d.fields()));
            }
        }
        return out;
    }

    private void turns(int n) {
        for (int i = 0; i < n; i++) {
            server.doWork();
        }
    }

    @Test
    void aLongConnectHelloCloseLoopNeverExhaustsTheBus_andAnOldHandleNeverReachesItsSuccessor() throws Exception {
        start(BusLimits.defaults(), 8);
        InProcessLink.End first = link.connect("svc.a");
        ok(first, "bus.hello", BusFields.of());
        ok(first, "topic.declare", BusFields.of().put("name", "t.a").put("retained", "none"));
        String sub = ok(first, "subscribe", BusFields.of().put("topic", "t.a").put("mode", "latest")
                .put("maxQueued", 1).put("maxInFlight", 1)).string("subscriptionId");
        ok(first, "service.register", BusFields.of().put("name", "svc.a").put("maxQueued", 1).put("maxInFlight", 1));
        first.close();
        turns(2);
        for (int i = 0; i < 5_000; i++) { // 625 times the transport's handle table
            InProcessLink.End e = link.connect(null);
            assertTrue(e.isOpen(), "connection " + i + " got a handle");
            assertEquals(1, ok(e, "bus.hello", BusFields.of()).u64("clientIncarnation"));
            e.close();
            turns(1);
        }
        assertEquals(0, bus.stats().connections(), "every closed connection's entry went");
        InProcessLink.End last = null;
        for (int i = 0; i < 8 && (last == null || last.peer() != first.peer()); i++) {
            last = link.connect("svc.b");
        }
        assertNotNull(last);
        assertEquals(first.peer(), last.peer(), "the first connection's handle has a new holder");
        assertNotEquals(first.generation(), last.generation());
        assertEquals(last.generation(), link.peerGeneration(last.peer()));
        ok(last, "bus.hello", BusFields.of());
        assertFalse(ok(last, "unsubscribe", BusFields.of().put("subscriptionId", sub)).bool("removed"),
                "the old holder's subscription is not reached through its handle");
        assertEquals(0, bus.stats().subscriptions());
        assertEquals(0, bus.stats().services(), "the old holder's service went with it");
    }

    @Test
    void aConnectHelloCloseLoopOverTheSocketPastItsHandleSpace_stillAdmitsANewConnection(@TempDir Path dir)
            throws Exception {
        start(BusLimits.defaults(), 8);
        LocalLink socket = LocalLink.listen(2, UnixDomainSocketAddress.of(dir.resolve("bus.sock")),
                new LocalLinkConfig().maxFrame(1 << 20).handleSpace(8), clock);
        server.attach(socket);
        try {
            for (int i = 0; i <= 40; i++) { // 5 times the socket's handle space, then one more
                LocalLink client = LocalLink.connect(1, socket.localAddress(), "c" + (i % 3),
                        new LocalLinkConfig().maxFrame(1 << 20), clock);
                try {
                    String route = "/t/r/" + i;
                    byte[] hello = BusFrames.request("bus.hello", route, BusFields.of());
                    BusFrames.Decoded reply = null;
                    for (int turn = 0; turn < 1_000_000 && reply == null; turn++) { // a guard against hangs
                        server.doWork();
                        BusFrames.Decoded[] got = {null};
                        client.poll((l, peer, buf, off, len) -> {
                            try {
                                BusFrames.Decoded d = BusFrames.decode(buf, off, len);
                                if (d.isReply()) {
                                    got[0] = d;
                                }
                            } catch (BusException ignored) {
                                // the link's hello echo or a notice: not ours
                            }
                        }, 16);
                        if (turn == 0) {
                            assertEquals(io.spectrum.wire.WireError.OK, client.send(0, hello, 0, hello.length));
                        }
                        reply = got[0];
                        if (reply == null) {
                            Thread.yield();
                        }
                    }
                    assertNotNull(reply, "connection " + i + " was answered");
                    assertEquals(null, reply.error(), "connection " + i + " was admitted");
                    assertEquals("c" + (i % 3), reply.fields().string("clientId"));
                } finally {
                    client.close();
                }
                for (int turn = 0; turn < 1_000_000 && bus.stats().connections() > 0; turn++) {
                    server.doWork();
                    Thread.yield();
                }
                assertEquals(0, bus.stats().connections(), "connection " + i + " left no entry");
            }
        } finally {
            socket.close();
        }
    }

    @Test
    void sixtyFourIdleConnectionsTimeOut_andFreeTheTableForANewOne() throws Exception {
        start(BusLimits.builder().idleTimeoutMillis(IDLE_MS).build(), 1 << 10);
        List<InProcessLink.End> idle = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            InProcessLink.End e = link.connect("idle." + i);
            assertEquals(IDLE_MS, ok(e, "bus.hello", BusFields.of()).u64("idleTimeoutMs"));
            idle.add(e);
        }
        InProcessLink.End late = link.connect("late");
        assertEquals(BusError.QUOTA_EXCEEDED, request(late, "bus.hello", BusFields.of(), null).error().code());
        assertFalse(late.isOpen(), "a refused connection is let go");
        assertEquals(0, link.peerGeneration(late.peer()), "its handle is free");
        assertEquals(64, bus.stats().connections());
        late.close();
        clock.advanceMillis(IDLE_MS - 1);
        turns(2);
        assertEquals(64, bus.stats().connections(), "not idle for the timeout yet");
        clock.advanceMillis(1);
        turns(2);
        assertEquals(0, bus.stats().connections(), "idle connections were closed and their entries freed");
        for (InProcessLink.End e : idle) {
            List<BusMessage> got = events(e);
            assertEquals(1, got.size());
            assertEquals(BusError.IDLE_TIMEOUT, ((BusMessage.ConnectionClosing) got.get(0)).code());
            assertFalse(e.isOpen(), "the transport's side is closed too");
        }
        InProcessLink.End fresh = link.connect("late");
        assertEquals("late", ok(fresh, "bus.hello", BusFields.of()).string("clientId"));
    }

    @Test
    void aQuietClientThatPingsIsKept_andAPeerThatNeverAsksAnythingIsDisconnected() throws Exception {
        start(BusLimits.builder().idleTimeoutMillis(IDLE_MS).build(), 16);
        InProcessLink.End live = link.connect("quiet");
        ok(live, "bus.hello", BusFields.of());
        InProcessLink.End mute = link.connect("mute"); // says nothing at all
        turns(1);
        for (int i = 0; i < 10; i++) {
            clock.advanceMillis(IDLE_MS / 2);
            ok(live, "bus.ping", BusFields.of());
        }
        assertTrue(live.isOpen());
        assertEquals(1, bus.stats().connections());
        assertEquals(List.of(), events(live));
        assertFalse(mute.isOpen(), "a peer silent for the timeout holds no entry");
    }

    @Test
    void idleTimeoutIsConfigurableAndZeroMeansNever() throws Exception {
        start(BusLimits.builder().idleTimeoutMillis(0).build(), 16);
        InProcessLink.End e = link.connect("forever");
        assertEquals(0, ok(e, "bus.hello", BusFields.of()).u64("idleTimeoutMs"));
        clock.advanceMillis(86_400_000L);
        turns(2);
        assertTrue(e.isOpen());
        assertEquals(1, bus.stats().connections());
    }
}
