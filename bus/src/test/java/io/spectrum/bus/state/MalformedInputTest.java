package io.spectrum.bus.state;

import io.spectrum.wire.BusError;

import static io.spectrum.bus.state.BusFixture.code;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import io.spectrum.bus.protocol.Attachment;
import io.spectrum.bus.protocol.BusStats;
import io.spectrum.bus.protocol.Retention;
import io.spectrum.bus.protocol.SubscriptionMode;

/** Strict input (DESIGN §4 decision 4): every malformed request is a typed INVALID_ENVELOPE and changes nothing. */
class MalformedInputTest extends BusTest {
    final BusFixture f = fixture();
    final BusSession c = f.connect("c");

    @Test
    void everyOperationRefusesNullsAndBadShapesWithInvalidEnvelope() throws Exception {
        c.declare("t", Retention.LATEST);
        c.subscribe("t", SubscriptionMode.BOUNDED, 4, 4, false);
        c.register("svc", 4, 4);
        BusFixture.Held h = f.artifact(c, "x");
        BusStats before = f.bus.stats();
        List<Attachment> nullEntry = Arrays.asList((Attachment) null);
        List<String> nullId = Arrays.asList((String) null);
        List<Executable> ops = List.of(
                () -> c.declare(null, Retention.NONE),
                () -> c.subscribe(null, SubscriptionMode.LATEST, 1, 1, false),
                () -> c.subscribe("t", SubscriptionMode.BOUNDED, -1, 1, false),
                () -> c.unsubscribe(null),
                () -> c.unsubscribe("sub-"),
                () -> c.publish("t", (byte[]) null, List.of()),
                () -> c.publish("t", "{}", nullEntry),
                () -> c.publish("t", "{}", List.of(new Attachment(null, h.ref(), h.ownerId()))),
                () -> c.publish("t", "{}", List.of(new Attachment("a", null, h.ownerId()))),
                () -> c.publish("t", "{}", List.of(new Attachment("a", h.ref(), null))),
                () -> c.publish("t", "{}", List.of(new Attachment("A", h.ref(), h.ownerId()))),
                () -> c.publish("t", "{}", java.util.Collections.nCopies(33, h.as("a"))),
                () -> c.clear(null),
                () -> c.delete("bad..name"),
                () -> c.consumed(null),
                () -> c.consumed(nullId),
                () -> c.consumed(List.of("dlv-1x")),
                () -> c.release(null),
                () -> c.release(List.of("own--1")),
                () -> c.allocate(-5, "x/y"),
                () -> c.allocate(1, null),
                () -> c.allocate(1, "x\u00e9"),
                () -> c.seal(1, 1, null, null),
                () -> c.open(null, h.ownerId()),
                () -> c.open(h.ref(), "OWN-1"),
                () -> c.retain(h.ref(), null),
                () -> c.register(null, 1, 1),
                () -> c.register("svc2", 1, 70_000),
                () -> c.unregister("svc", null),
                () -> c.call(null, "svc", null, "M", "{}", List.of()),
                () -> c.call("call-1", null, null, "M", "{}", List.of()),
                () -> c.call("call-1", "svc", "Bad Inc", "M", "{}", List.of()),
                () -> c.call("call-1", "svc", null, null, "{}", List.of()),
                () -> c.reply(null, "dlv-1", "{}", List.of()),
                () -> c.reply("call-1", null, "{}", List.of()),
                () -> c.reply("call-1", "dlv-1", (byte[]) null, List.of()),
                () -> c.cancel(null),
                () -> c.releaseResponder("call-1", "dlv-x"));
        for (int i = 0; i < ops.size(); i++) {
            assertEquals(BusError.INVALID_ENVELOPE, code(ops.get(i)), "operation " + i);
        }
        assertEquals(before, f.bus.stats());
        assertTrue(c.isOpen());
        assertEquals(1, c.publish("t", "{}", List.of(h.as("a"))).topicSequence());
    }
}
