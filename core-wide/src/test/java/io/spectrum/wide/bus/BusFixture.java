package io.spectrum.wide.bus;

import io.spectrum.wire.BusError;

import static org.junit.jupiter.api.Assertions.assertThrows;

import io.spectrum.time.ManualClock;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.function.Executable;

/** A host bus over an in-memory store with a manual clock, plus the helpers the bus tests share. */
class BusFixture {
    final ManualClock clock = new ManualClock(0);
    final MemoryArtifactStore store;
    final HostBus bus;

    BusFixture() {
        this(BusLimits.defaults());
    }

    BusFixture(BusLimits limits) {
        this(limits, new MemoryArtifactStore());
    }

    BusFixture(BusLimits limits, MemoryArtifactStore store) {
        this.store = store;
        this.bus = new HostBus(store, clock, limits);
    }

    /** A sealed artifact and the owner (hold) its producer holds it through. */
    record Held(ArtifactRef ref, String ownerId) {
        Attachment as(String name) {
            return new Attachment(name, ref, ownerId);
        }
    }

    BusConnection connect(String name) {
        try {
            return bus.connect(name, Grants.open());
        } catch (BusException e) {
            throw new AssertionError(e);
        }
    }

    /** Allocates, writes and seals {@code data}; the producer holds it through the returned owner. */
    Held artifact(BusConnection c, byte[] data) throws BusException {
        Replies.Allocated a = c.allocate(data.length, "application/octet-stream");
        store.write(a.staged().artifactId(), data);
        Replies.Sealed s = c.seal(a.staged().artifactId(), a.staged().generation(), a.ownerId(),
                MemoryArtifactStore.sha256(data));
        return new Held(s.ref(), s.ownerId());
    }

    Held artifact(BusConnection c, String text) throws BusException {
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
    static List<BusMessage> drain(BusConnection c) {
        List<BusMessage> out = new ArrayList<>();
        for (BusMessage m = c.poll(); m != null; m = c.poll()) {
            out.add(m);
        }
        return out;
    }

    /** The topic deliveries the connection may receive now. */
    static List<BusMessage.TopicMessage> topicMessages(BusConnection c) {
        List<BusMessage.TopicMessage> out = new ArrayList<>();
        for (BusMessage m : drain(c)) {
            if (m instanceof BusMessage.TopicMessage t) {
                out.add(t);
            }
        }
        return out;
    }

    static BusMessage.TopicMessage onlyTopic(BusConnection c) {
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
