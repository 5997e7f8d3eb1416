package io.spectrum.bus.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusFields;
import io.spectrum.bus.protocol.BusFrames;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.bus.protocol.Retention;
import io.spectrum.bus.server.BusServer;
import io.spectrum.link.local.LocalLink;
import io.spectrum.link.local.LocalLinkConfig;
import io.spectrum.wire.BusError;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A name handed over from a closed connection to a new one (docs/bus.md, "Reconnecting under the
 * same name"), over the Unix socket with the server driven by the test's thread: the old socket is
 * closed and the new one dials and says hello before the server runs at all, so the server reads
 * the old connection's end of stream and the new hello in the same turn. A live holder of the name
 * still refuses a newcomer CONFLICT, once the handover time has passed on the bus's clock.
 */
class NameHandoverOverSocketTest {
    /** Turns of the server (and the client's link) a reply may take, at most. */
    private static final int TURNS = 200;

    private final BusFixture fx = new BusFixture(BusLimits.defaults(), new MemoryArtifactStore(),
            BusFixture.Via.UNIX_SOCKET);
    private int links = 500;

    @AfterEach
    void close() {
        fx.close();
    }

    /** A client of the fixture's socket under {@code name}: its link's hello is sent, nothing else. */
    private WireSession.End dial(String name) throws IOException {
        LocalLink l = LocalLink.connect(links++, fx.socketAddress(), name, new LocalLinkConfig().maxFrame(4 << 20),
                fx.clock);
        return WireSession.link(fx.server(), l);
    }

    private static void send(WireSession.End e, String command, long n) {
        assertEquals(io.spectrum.wire.WireError.OK, e.send(BusFrames.request(command, "/t/r/" + n, BusFields.of())));
    }

    /** The first reply within {@code turns} turns of the server, or null. */
    private static BusFrames.Decoded reply(WireSession.End e, int turns) throws BusException {
        List<BusFrames.Decoded> got = replies(e, 1, turns);
        return got.isEmpty() ? null : got.get(0);
    }

    /** The replies that arrive within {@code turns} turns of the server, until there are {@code count}. */
    private static List<BusFrames.Decoded> replies(WireSession.End e, int count, int turns) throws BusException {
        List<BusFrames.Decoded> got = new ArrayList<>();
        for (int i = 0; i < turns && got.size() < count; i++) {
            for (byte[] f : e.receive()) {
                BusFrames.Decoded d = BusFrames.decode(f, 0, f.length);
                if (d.isReply()) {
                    got.add(d);
                }
            }
        }
        return got;
    }

    @Test
    void aNameClosedThenDialledAgainAtOnceIsAdmittedEveryTime() throws Exception {
        WireSession.End old = dial("app");
        send(old, "bus.hello", 1);
        BusFrames.Decoded first = reply(old, TURNS);
        assertNotNull(first);
        assertNull(first.error());
        for (int cycle = 2; cycle <= 51; cycle++) {
            old.close();
            WireSession.End next = dial("app");
            send(next, "bus.hello", 1);
            send(next, "bus.ping", 2); // a second request behind the hello keeps its place
            List<BusFrames.Decoded> got = replies(next, 2, TURNS);
            assertEquals(2, got.size(), "cycle " + cycle + ": the hello and the ping are answered");
            BusFrames.Decoded hello = got.get(0);
            assertNull(hello.error(), "cycle " + cycle + ": " + hello.error());
            assertEquals("/t/r/1", hello.dst());
            assertEquals("app", hello.fields().string("clientId"));
            assertEquals(cycle, hello.fields().u64("clientIncarnation"), "one incarnation per connection");
            BusFrames.Decoded ping = got.get(1);
            assertEquals("/t/r/2", ping.dst());
            assertNull(ping.error(), "the ping ran, on the new connection");
            assertEquals(1, fx.bus.connections().size(), "the old connection is gone, the new one is the only one");
            old = next;
        }
        old.close();
    }

    @Test
    void aNewcomerWaitingForTheNameIsAdmittedWhenTheHolderGoes() throws Exception {
        WireSession.End holder = dial("app");
        send(holder, "bus.hello", 1);
        assertNull(reply(holder, TURNS).error());

        WireSession.End newcomer = dial("app");
        send(newcomer, "bus.hello", 1);
        assertNull(reply(newcomer, 20), "the holder is open: the newcomer waits");
        send(newcomer, "bus.ping", 2); // arrives while it waits: parked behind the hello
        fx.clock.advanceMillis(BusServer.NAME_HANDOVER_MILLIS - 1);
        assertNull(reply(newcomer, 5), "still within the handover time");
        holder.close();
        List<BusFrames.Decoded> got = replies(newcomer, 2, TURNS);
        assertEquals(2, got.size(), "the holder went: the hello and the ping are answered, in order");
        assertNull(got.get(0).error());
        assertEquals("/t/r/1", got.get(0).dst());
        assertEquals(2, got.get(0).fields().u64("clientIncarnation"));
        assertEquals("/t/r/2", got.get(1).dst());
        assertNull(got.get(1).error());
        assertEquals(1, fx.bus.connections().size());
        newcomer.close();
    }

    @Test
    void aLiveHolderOfTheNameStillRefusesANewcomerAndKeepsEverything() throws Exception {
        WireSession.End live = dial("app");
        send(live, "bus.hello", 1);
        assertNull(reply(live, TURNS).error());
        BusConnection held = fx.server().connectionOf("app");
        assertNotNull(held);
        assertTrue(held.declare("t.kept", Retention.LATEST).declared());

        WireSession.End newcomer = dial("app");
        send(newcomer, "bus.hello", 1);
        assertNull(reply(newcomer, 20), "within the handover time the newcomer waits for the holder");
        fx.clock.advanceMillis(BusServer.NAME_HANDOVER_MILLIS);
        BusFrames.Decoded refused = reply(newcomer, TURNS);
        assertNotNull(refused, "past the handover time a live holder's name is refused");
        assertEquals(BusError.CONFLICT, refused.error().code());

        // the refusal changed nothing: the holder is the same connection, open and working
        assertSame(held, fx.server().connectionOf("app"));
        assertTrue(held.isOpen());
        assertEquals(1, fx.bus.connections().size());
        send(live, "bus.ping", 2);
        BusFrames.Decoded pong = reply(live, TURNS);
        assertNotNull(pong);
        assertNull(pong.error());
        assertEquals(1, fx.bus.stats().topics());
        live.close();
        newcomer.close();
    }
}
