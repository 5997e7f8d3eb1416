package io.spectrum.bus.state;

import io.spectrum.wire.BusError;
import io.spectrum.wide.Grants;

import static org.junit.jupiter.api.Assertions.assertThrows;

import io.spectrum.link.local.LocalLink;
import io.spectrum.link.local.LocalLinkConfig;
import io.spectrum.time.ManualClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.function.Executable;
import io.spectrum.bus.protocol.ArtifactRef;
import io.spectrum.bus.protocol.Attachment;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.bus.protocol.BusMessage;
import io.spectrum.bus.server.BusServer;
import io.spectrum.link.local.InProcessLink;

/**
 * A host bus over an in-memory store with a manual clock, plus the helpers the bus tests share.
 * Its connections are the bus's own ({@link Via#DIRECT}) or go over a transport: each operation a
 * request frame to a {@link BusServer} and each message an event frame ({@link WireSession}), over
 * the in-process link or a Unix socket, like the reference's tests.
 */
class BusFixture implements AutoCloseable {
    /** How a test's connections reach the bus. */
    enum Via { DIRECT, IN_PROCESS, UNIX_SOCKET }

    final ManualClock clock = new ManualClock(0);
    final MemoryArtifactStore store;
    final HostBus bus;
    final Via via;
    private final Map<String, Grants> grants = new HashMap<>();
    private BusServer server;
    private InProcessLink inProcess;
    private LocalLink listener;
    private Path dir;
    private int clientLinks = 100;

    BusFixture() {
        this(BusLimits.defaults());
    }

    BusFixture(BusLimits limits) {
        this(limits, new MemoryArtifactStore());
    }

    BusFixture(BusLimits limits, MemoryArtifactStore store) {
        this(limits, store, Via.DIRECT);
    }

    BusFixture(BusLimits limits, MemoryArtifactStore store, Via via) {
        this.store = store;
        this.bus = new HostBus(store, clock, limits);
        this.via = via;
        if (via != Via.DIRECT) {
            server = new BusServer(bus, store, id -> grants.getOrDefault(id, Grants.open()));
            server.pullOnly(true);
            inProcess = BusServer.inProcessLink(1, InProcessLink.MAX_ENDS, BusLimits.defaults());
            server.attach(inProcess);
        }
        if (via == Via.UNIX_SOCKET) {
            try {
                dir = Files.createTempDirectory("bus-test");
                listener = LocalLink.listen(2, UnixDomainSocketAddress.of(dir.resolve("bus.sock")),
                        new LocalLinkConfig().maxFrame(4 << 20), clock);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            server.attach(listener);
        }
    }

    /** The server a wire fixture's connections reach (null for {@link Via#DIRECT}). */
    BusServer server() {
        return server;
    }

    /** The Unix socket's address ({@link Via#UNIX_SOCKET} only). */
    java.net.SocketAddress socketAddress() {
        return listener.localAddress();
    }

    /** A connection with open grants. */
    BusSession connect(String name) {
        return connect(name, Grants.open());
    }

    /** A connection with {@code g}: the bus's own, or a {@link WireSession} over this fixture's transport. */
    BusSession connect(String name, Grants g) {
        try {
            if (via == Via.DIRECT) {
                return bus.connect(name, g);
            }
            if (name != null) {
                grants.put(name, g);
            }
            if (via == Via.IN_PROCESS) {
                return new WireSession(server, WireSession.inProcess(server, inProcess.connect(name)));
            }
            LocalLink c = LocalLink.connect(clientLinks++, listener.localAddress(), name,
                    new LocalLinkConfig().maxFrame(4 << 20), clock);
            return new WireSession(server, WireSession.link(server, c));
        } catch (BusException e) {
            throw new AssertionError(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        if (listener != null) {
            listener.close();
        }
        if (dir != null) {
            try (var files = Files.list(dir)) {
                for (Path p : (Iterable<Path>) files::iterator) {
                    Files.deleteIfExists(p);
                }
                Files.deleteIfExists(dir);
            } catch (IOException ignored) {
                // a temp directory left behind is harmless
            }
        }
    }

    /** A sealed artifact and the owner (hold) its producer holds it through. */
    record Held(ArtifactRef ref, String ownerId) {
        Attachment as(String name) {
            return new Attachment(name, ref, ownerId);
        }
    }

    /** Allocates, writes and seals {@code data}; the producer holds it through the returned owner. */
    Held artifact(BusSession c, byte[] data) throws BusException {
        Replies.Allocated a = c.allocate(data.length, "application/octet-stream");
        store.write(a.staged().artifactId(), data);
        Replies.Sealed s = c.seal(a.staged().artifactId(), a.staged().generation(), a.ownerId(),
                MemoryArtifactStore.sha256(data));
        return new Held(s.ref(), s.ownerId());
    }

    Held artifact(BusSession c, String text) throws BusException {
        return artifact(c, bytes(text));
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] sized(int n, char fill) {
        byte[] b = new byte[n];
        java.util.Arrays.fill(b, (byte) fill);
        return b;
    }

    String readBytes(Attachment a) {
        byte[] b = store.read(a.ref().artifactId());
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    /** Everything the connection may receive now, in order. */
    static List<BusMessage> drain(BusSession c) {
        List<BusMessage> out = new ArrayList<>();
        for (BusMessage m = c.poll(); m != null; m = c.poll()) {
            out.add(m);
        }
        return out;
    }

    /** The topic deliveries the connection may receive now. */
    static List<BusMessage.TopicMessage> topicMessages(BusSession c) {
        List<BusMessage.TopicMessage> out = new ArrayList<>();
        for (BusMessage m : drain(c)) {
            if (m instanceof BusMessage.TopicMessage t) {
                out.add(t);
            }
        }
        return out;
    }

    static BusMessage.TopicMessage onlyTopic(BusSession c) {
        List<BusMessage.TopicMessage> got = topicMessages(c);
        if (got.size() != 1) {
            throw new AssertionError("expected one topic message, got " + got);
        }
        return got.get(0);
    }

    static BusError code(Executable op) {
        return assertThrows(BusException.class, op).code();
    }

    static List<String> seqs(List<BusMessage.TopicMessage> ms) {
        List<String> out = new ArrayList<>();
        for (BusMessage.TopicMessage m : ms) {
            out.add(m.topicSequence() + ":" + m.payloadText());
        }
        return out;
    }

    static String p(int n) {
        return "{\"n\":" + n + "}";
    }
}
