package io.spectrum.bus.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import io.spectrum.wide.Grants;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.link.local.LocalLink;
import io.spectrum.link.local.LocalLinkConfig;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.BusError;
import io.spectrum.wire.WireError;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusFields;
import io.spectrum.bus.protocol.BusFrames;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.bus.server.BusServer;
import io.spectrum.link.local.InProcessLink;

/** The bus's frame limit follows from its envelope limit, and what it holds of received frames is bounded. */
class BusFrameLimitTest {
    private final ManualClock clock = new ManualClock(0);
    private final MemoryArtifactStore store = new MemoryArtifactStore();
    private HostBus bus;
    private BusServer server;
    private long requests;

    private void start(BusLimits limits) {
        bus = new HostBus(store, clock, limits);
        server = new BusServer(bus, store, id -> Grants.open());
    }

    @Test
    void theFrameLimitIsTheEnvelopeLimitPlusTheRequestHeadroom() {
        assertEquals(65_536 + 1_024, BusLimits.defaults().maxFrameBytes());
        assertEquals(8_192 + BusLimits.REQUEST_HEADROOM, BusLimits.builder().maxEnvelopeBytes(8_192).build().maxFrameBytes());
        assertEquals(BusLimits.defaults().maxFrameBytes(), BusServer.inProcessLink(1, InProcessLink.MAX_ENDS, BusLimits.defaults()).maxFrame());
    }

    @Test
    void aFrameOverTheLimitIsRefusedTyped_evenOnALinkThatCarriesIt_andTheConnectionGoesOn(@TempDir Path dir)
            throws Exception {
        start(BusLimits.defaults());
        LocalLink socket = LocalLink.listen(2, UnixDomainSocketAddress.of(dir.resolve("bus.sock")),
                new LocalLinkConfig().maxFrame(4 << 20), clock);
        server.attach(socket);
        LocalLink client = LocalLink.connect(1, socket.localAddress(), "big", new LocalLinkConfig().maxFrame(4 << 20), clock);
        try {
            ok(client, "topic.declare", BusFields.of().put("name", "t.big").put("retained", "none"));
            BusFrames.Decoded r = request(client, "publish", BusFields.of().put("topic", "t.big")
                    .putBytes("payload", new byte[1 << 20]));
            assertNotNull(r.error());
            assertEquals(BusError.INVALID_ENVELOPE, r.error().code());
            assertTrue(r.error().getMessage().contains("frame limit " + BusLimits.defaults().maxFrameBytes()),
                    r.error().getMessage());
            assertEquals("big", ok(client, "bus.hello", BusFields.of()).string("clientId"), "the connection goes on");
        } finally {
            client.close();
            socket.close();
        }
    }

    @Test
    void theInProcessQueueIsBoundedByTheReceiveBudget_aSenderIsPausedAndLosesNothing() throws Exception {
        BusLimits limits = BusLimits.builder().maxEnvelopeBytes(4_096).maxReceiveBytes(16_384).build();
        start(limits);
        InProcessLink link = BusServer.inProcessLink(1, 8, limits);
        server.attach(link);
        InProcessLink.End end = link.connect("fast");
        byte[] big = BusFrames.request("bus.hello", "/t/r/0", BusFields.of());
        assertEquals(WireError.FRAME_INVALID, end.send(new byte[limits.maxFrameBytes() + 1], 0, limits.maxFrameBytes() + 1));
        List<String> routes = new ArrayList<>();
        int rc;
        do {
            String route = "/t/r/" + routes.size();
            byte[] f = BusFrames.request("bus.stats", route, BusFields.of());
            rc = end.send(f, 0, f.length);
            if (rc == WireError.OK) {
                routes.add(route);
            }
        } while (rc == WireError.OK && routes.size() < 100_000);
        assertEquals(WireError.FLOW_BACKPRESSURE, rc, "the sender is paused once the budget is spent");
        assertTrue(routes.size() * (long) big.length <= limits.maxReceiveBytes() + big.length);
        List<String> answered = new ArrayList<>();
        for (int turn = 0; turn < 1_000 && answered.size() < routes.size(); turn++) {
            server.doWork();
            for (byte[] f; (f = end.poll()) != null; ) {
                BusFrames.Decoded d = BusFrames.decode(f, 0, f.length);
                if (d.isReply()) {
                    assertEquals(null, d.error());
                    answered.add(d.dst());
                }
            }
        }
        assertEquals(routes, answered, "every request the transport took was answered, in order");
        byte[] again = BusFrames.request("bus.stats", "/t/r/again", BusFields.of());
        assertEquals(WireError.OK, end.send(again, 0, again.length), "room again once the bus read them");
    }

    @Test
    void aListReplyFitsTheEnvelope_andSaysWhenItWasTruncated() throws Exception {
        BusLimits limits = BusLimits.builder().maxEnvelopeBytes(4_096).build();
        start(limits);
        InProcessLink link = BusServer.inProcessLink(1, 8, limits);
        server.attach(link);
        InProcessLink.End end = link.connect("many");
        for (int i = 0; i < 100; i++) {
            ok(end, "service.register", BusFields.of().put("name", "svc.number." + i).put("maxQueued", 1).put("maxInFlight", 1));
        }
        BusFields list = ok(end, "service.list", BusFields.of());
        assertTrue(list.bool("truncated", false));
        int shown = list.records("services").size();
        assertTrue(shown > 0 && shown < 100, "shown " + shown);
        assertTrue(BusFrames.eventSize("services", list) <= limits.maxEnvelopeBytes());
        InProcessLink.End few = link.connect("few");
        assertFalse(ok(few, "artifact.list", BusFields.of()).has("truncated"), "a list that fits is whole, unmarked");
    }

    // ---- helpers: one request, answered by running the server ----

    private BusFrames.Decoded request(Object end, String command, BusFields body) throws Exception {
        String route = "/t/r/" + (++requests);
        byte[] frame = BusFrames.request(command, route, body);
        BusFrames.Decoded[] got = {null};
        if (end instanceof InProcessLink.End e) {
            assertEquals(WireError.OK, e.send(frame, 0, frame.length));
        } else {
            assertEquals(WireError.OK, ((LocalLink) end).send(0, frame, 0, frame.length));
        }
        for (int turn = 0; turn < 1_000_000 && got[0] == null; turn++) { // a guard against hangs
            server.doWork();
            if (end instanceof InProcessLink.End e) {
                for (byte[] f; (f = e.poll()) != null; ) {
                    BusFrames.Decoded d = BusFrames.decode(f, 0, f.length);
                    if (d.isReply() && d.dst().equals(route)) {
                        got[0] = d;
                    }
                }
            } else {
                ((LocalLink) end).poll((l, peer, buf, off, len) -> {
                    try {
                        BusFrames.Decoded d = BusFrames.decode(buf, off, len);
                        if (d.isReply() && d.dst().equals(route)) {
                            got[0] = d;
                        }
                    } catch (BusException notOurs) {
                        // the link's hello or notice
                    }
                }, 16);
                if (got[0] == null) {
                    Thread.yield();
                }
            }
        }
        assertNotNull(got[0], "no reply to " + command);
        return got[0];
    }

    private BusFields ok(Object end, String command, BusFields body) throws Exception {
        BusFrames.Decoded d = request(end, command, body);
        if (d.error() != null) {
            throw d.error();
        }
        return d.fields();
    }
}
