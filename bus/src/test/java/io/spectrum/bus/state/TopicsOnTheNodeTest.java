package io.spectrum.bus.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.bus.protocol.Attachment;
import io.spectrum.bus.protocol.BusMessage;
import io.spectrum.bus.protocol.MessageValue;
import io.spectrum.bus.protocol.Retention;
import io.spectrum.bus.protocol.SubscriptionMode;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.time.ManualClock;
import io.spectrum.wide.Grants;
import io.spectrum.wide.WideNode;
import io.spectrum.wide.WidePeer;
import io.spectrum.wire.BusError;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A bus topic is a vertex of the node (docs/bus.md, "Topics are the node's vertices"): one value, one
 * sequence and one set of rules whichever door a publish or a subscriber comes through.
 */
class TopicsOnTheNodeTest {
    private final ManualClock clock = new ManualClock(0);
    private final WideNode node = new WideNode(WideNode.hostConfig().clock(clock).build());
    private final MemoryArtifactStore store = new MemoryArtifactStore();
    private final HostBus bus = new HostBus(store, clock, BusLimits.defaults(), node);
    private final NodePath setpoint = NodePath.of("/lab/setpoint");

    private static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] valueTlv(byte[] payload) {
        return tlv(TlvType.VALUE, payload);
    }

    /** Text, as the bus keeps a text payload on the node: a NAME. */
    private static byte[] textTlv(String s) {
        return tlv(TlvType.NAME, text(s));
    }

    private static byte[] tlv(int type, byte[] payload) {
        byte[] b = new byte[payload.length + 16];
        int n = new TlvWriter().wrap(b, 0, b.length).leaf(type, payload).length();
        return java.util.Arrays.copyOf(b, n);
    }

    private static List<BusMessage.TopicMessage> drain(BusConnection c) {
        List<BusMessage.TopicMessage> out = new ArrayList<>();
        for (BusMessage m = c.poll(); m != null; m = c.poll()) {
            if (m instanceof BusMessage.TopicMessage t) {
                out.add(t);
            }
        }
        return out;
    }

    @Test
    void aBusPublish_isTheVertexsValue_numberedByTheNode_underTheConnectionsName() throws Exception {
        BusConnection app = bus.connect("app", Grants.open());
        app.declare("lab.setpoint", Retention.LATEST);
        assertEquals(1, app.publish("lab.setpoint", text("21.5"), List.of()).topicSequence());
        assertEquals(2, app.publish("lab.setpoint", text("22.0"), List.of()).topicSequence());

        assertArrayEquals(textTlv("22.0"), node.valueCopy(setpoint));
        assertEquals(2, node.sequence(setpoint));
        assertEquals("app", node.lastPublisher(setpoint));
        assertFalse(node.isStale(setpoint));

        // a payload that is not text is a VALUE holding its bytes; either way a subscriber gets the bytes back
        BusConnection viewer = bus.connect("viewer", Grants.open());
        viewer.subscribe("lab.setpoint", SubscriptionMode.BOUNDED, 8, 8, false);
        byte[] binary = {0x00, (byte) 0xFF, 0x10};
        app.publish("lab.setpoint", binary, List.of());
        assertArrayEquals(valueTlv(binary), node.valueCopy(setpoint));
        assertArrayEquals(binary, drain(viewer).get(0).payload());
    }

    @Test
    void aLibtracerWrite_reachesTheBusSubscribers_inTheOneSequence() throws Exception {
        BusConnection app = bus.connect("app", Grants.open());
        BusConnection viewer = bus.connect("viewer", Grants.open());
        app.declare("lab.setpoint", Retention.LATEST);
        viewer.subscribe("lab.setpoint", SubscriptionMode.BOUNDED, 8, 8, false);
        app.publish("lab.setpoint", text("bus"), List.of());
        WidePeer writer = node.connect("writer");
        byte[] v = valueTlv(text("node"));
        assertEquals(WireError.OK, writer.publish(setpoint, v, 0, v.length));

        List<BusMessage.TopicMessage> got = drain(viewer);
        assertEquals(2, got.size());
        assertEquals("bus", got.get(0).payloadText());
        assertNull(got.get(0).stale(), "a current value carries no mark");
        assertEquals(1, got.get(0).topicSequence());
        assertEquals("node", got.get(1).payloadText());
        assertEquals(2, got.get(1).topicSequence());
        assertEquals(2, node.sequence(setpoint));

        // a late bus subscriber with replay gets what the node holds: the libtracer writer's value
        BusConnection late = bus.connect("late", Grants.open());
        late.subscribe("lab.setpoint", SubscriptionMode.LATEST, 1, 1, true);
        List<BusMessage.TopicMessage> replay = drain(late);
        assertEquals(1, replay.size());
        assertEquals("node", replay.get(0).payloadText());
        assertEquals(2, replay.get(0).topicSequence());
    }

    @Test
    void aFullBoundedBusSubscription_refusesALibtracerWriteWhole() throws Exception {
        BusConnection app = bus.connect("app", Grants.open());
        BusConnection slow = bus.connect("slow", Grants.open());
        app.declare("lab.setpoint", Retention.LATEST);
        slow.subscribe("lab.setpoint", SubscriptionMode.BOUNDED, 1, 1, false);
        app.publish("lab.setpoint", text("a"), List.of()); // handed out: the one credit is taken
        assertEquals(1, drain(slow).size());
        app.publish("lab.setpoint", text("b"), List.of()); // queued: the one queue place is taken

        WidePeer writer = node.connect("writer");
        byte[] v = valueTlv(text("c"));
        assertEquals(WireError.FLOW_BACKPRESSURE, writer.publish(setpoint, v, 0, v.length));
        assertEquals(2, node.sequence(setpoint), "refused whole: not numbered");
        assertArrayEquals(textTlv("b"), node.valueCopy(setpoint), "nor retained");
        BusException e = assertThrows(BusException.class, () -> app.publish("lab.setpoint", text("d"), List.of()));
        assertEquals(BusError.BACKPRESSURE, e.code());
    }

    @Test
    void retainFalse_numbersAndDelivers_butTheNodeKeepsTheRetainedValue() throws Exception {
        BusConnection app = bus.connect("app", Grants.open());
        BusConnection viewer = bus.connect("viewer", Grants.open());
        app.declare("lab.setpoint", Retention.LATEST);
        viewer.subscribe("lab.setpoint", SubscriptionMode.BOUNDED, 8, 8, false);
        app.publish("lab.setpoint", text("kept"), List.of());
        assertEquals(2, app.publish("lab.setpoint", text("event"), List.of(), false).topicSequence());

        assertEquals(2, node.sequence(setpoint));
        assertEquals(1, node.valueSequence(setpoint));
        assertArrayEquals(textTlv("kept"), node.valueCopy(setpoint));
        assertEquals(List.of("kept", "event"), drain(viewer).stream().map(BusMessage.TopicMessage::payloadText).toList());
    }

    @Test
    void aTopicRetainedNone_leavesNoValueOnTheNode() throws Exception {
        BusConnection app = bus.connect("app", Grants.open());
        app.declare("lab.events", Retention.NONE);
        assertEquals(1, app.publish("lab.events", text("e"), List.of()).topicSequence());
        assertEquals(1, node.sequence(NodePath.of("/lab/events")));
        assertNull(node.valueCopy(NodePath.of("/lab/events")));
    }

    @Test
    void whenThePublisherGoes_theValueIsStale_thenPurgedAfterTheGrace_andTheBusLetsItGo() throws Exception {
        BusConnection app = bus.connect("app", Grants.open());
        app.declare("lab.setpoint", Retention.LATEST);
        app.publish("lab.setpoint", text("21.5"), List.of());
        app.close();
        assertTrue(node.isStale(setpoint));
        // a subscriber that joins now gets the value marked, with the node's reason
        BusConnection early = bus.connect("early", Grants.open());
        String sub = early.subscribe("lab.setpoint", SubscriptionMode.LATEST, 1, 1, true).subscriptionId();
        List<BusMessage.TopicMessage> marked = drain(early);
        assertEquals(1, marked.size());
        assertEquals("21.5", marked.get(0).payloadText());
        assertEquals("publisher gone", marked.get(0).stale());
        early.unsubscribe(sub);

        clock.advanceNanos(61_000_000_000L);
        node.tick();
        assertNull(node.valueCopy(setpoint));
        bus.tick();
        BusConnection late = bus.connect("late", Grants.open());
        late.subscribe("lab.setpoint", SubscriptionMode.LATEST, 1, 1, true);
        assertTrue(drain(late).isEmpty(), "nothing to replay once the node purged it");
        assertEquals(0, bus.stats().retainedBytes());
    }

    @Test
    void aDeclaredVertex_isNotABusTopic() throws Exception {
        NodePath led = NodePath.of("/board1/led");
        assertEquals(WireError.OK, node.declare(led, VertexSchema.value(1, false).writable().build()));
        BusConnection app = bus.connect("app", Grants.open());
        BusException e = assertThrows(BusException.class, () -> app.declare("board1.led", Retention.LATEST));
        assertEquals(BusError.CONFLICT, e.code());
        // a mounted board's vertex as the host holds it: a copy with the board's declaration reported on it
        NodePath temp = NodePath.of("/board1/temp");
        byte[] v = valueTlv(text("t"));
        assertEquals(WireError.OK, node.write(temp, v, 0, v.length));
        assertEquals(WireError.OK, node.report(temp, VertexSchema.value(2, true).readOnly().build()));
        e = assertThrows(BusException.class, () -> app.declare("board1.temp", Retention.LATEST));
        assertEquals(BusError.CONFLICT, e.code());
        assertEquals(0, bus.stats().topics());
    }

    @Test
    void anAnonymousConnection_isTheNodesAnonymousPeer() throws Exception {
        BusConnection anon = bus.connect(null, Grants.open());
        anon.declare("lab.anon", Retention.LATEST);
        anon.publish("lab.anon", text("x"), List.of());
        assertTrue(anon.identity().clientId().startsWith("anon-"));
        assertEquals(anon.identity().clientId(), node.lastPublisher(NodePath.of("/lab/anon")));
    }

    @Test
    void theTopicsSubscribersAreOneEdge_whileThereAreAny() throws Exception {
        BusConnection app = bus.connect("app", Grants.open());
        app.declare("lab.setpoint", Retention.LATEST);
        assertEquals(0, node.listenerCount(setpoint));
        String a = app.subscribe("lab.setpoint", SubscriptionMode.LATEST, 1, 1, false).subscriptionId();
        String b = app.subscribe("lab.setpoint", SubscriptionMode.BOUNDED, 4, 4, false).subscriptionId();
        assertEquals(1, node.listenerCount(setpoint));
        app.unsubscribe(a);
        assertEquals(1, node.listenerCount(setpoint));
        app.unsubscribe(b);
        assertEquals(0, node.listenerCount(setpoint));
    }

    @Test
    void aGrantWrittenAsAPath_coversTheTopicOfThatVertex() throws Exception {
        Grants lab = Grants.builder().manage(Grants.Pattern.prefix("/lab/")).publish(Grants.Pattern.prefix("/lab/")).build();
        BusConnection app = bus.connect("app", lab);
        app.declare("lab.setpoint", Retention.LATEST);
        assertEquals(1, app.publish("lab.setpoint", text("1"), List.of()).topicSequence());
        BusException e = assertThrows(BusException.class, () -> app.declare("plant.valve", Retention.LATEST));
        assertEquals(BusError.NOT_AUTHORIZED, e.code());
        assertEquals(1, bus.stats().topics());
    }

    /** Declares {@code cam.frame} for {@code cam} and stages {@code pixels} as an artifact, unsealed. */
    private Replies.Allocated stagedFrame(BusConnection cam, byte[] pixels) throws Exception {
        cam.declare("cam.frame", Retention.LATEST);
        Replies.Allocated a = cam.allocate(pixels.length, "image/raw");
        store.write(a.staged().artifactId(), pixels);
        return a;
    }

    @Test
    void aMessagesAttachments_areReferencesTheVertexHolds_besideItsPayload() throws Exception {
        BusConnection cam = bus.connect("cam", Grants.open());
        byte[] pixels = text("pixels");
        Replies.Allocated a = stagedFrame(cam, pixels);
        Replies.Sealed sealed = cam.seal(a.staged().artifactId(), a.staged().generation(), a.ownerId(),
                MemoryArtifactStore.sha256(pixels));
        cam.publish("cam.frame", text("frame 1"), List.of(new Attachment("image", sealed.ref(), sealed.ownerId())));

        byte[] v = node.valueCopy(NodePath.of("/cam/frame"));
        assertEquals("frame 1 [image: artifact " + sealed.ref().artifactId() + "." + sealed.ref().generation()
                + " 6 bytes sha256:" + MemoryArtifactStore.sha256(pixels) + "]", MessageValue.render(v, 0, v.length));
        assertArrayEquals(text("frame 1"), MessageValue.payload(v), "the payload is there whole");

        BusConnection late = bus.connect("late", Grants.open());
        late.subscribe("cam.frame", SubscriptionMode.LATEST, 1, 1, true);
        List<BusMessage.TopicMessage> replay = drain(late);
        assertEquals(1, replay.size());
        assertEquals("frame 1", replay.get(0).payloadText());
        assertEquals(sealed.ref(), replay.get(0).attachments().get(0).ref(), "a bus subscriber still gets the attachment");
    }

    @Test
    void anAttachmentSealedOnSend_isReferencedWithTheDigestItsSealGave() throws Exception {
        BusConnection cam = bus.connect("cam", Grants.open());
        byte[] pixels = text("pixel");
        Replies.Allocated a = stagedFrame(cam, pixels);
        io.spectrum.bus.protocol.ArtifactRef unsealed = new io.spectrum.bus.protocol.ArtifactRef(store.storeId(),
                a.staged().artifactId(), a.staged().generation(), pixels.length, "");
        cam.publish("cam.frame", new byte[] {0x00, 0x01}, List.of(new Attachment("image", unsealed, a.ownerId())));
        byte[] v = node.valueCopy(NodePath.of("/cam/frame"));
        assertEquals("<2 bytes> [image: artifact " + a.staged().artifactId() + "." + a.staged().generation()
                + " 5 bytes sha256:" + MemoryArtifactStore.sha256(pixels) + "]", MessageValue.render(v, 0, v.length));
        assertArrayEquals(new byte[] {0x00, 0x01}, MessageValue.payload(v));
    }
}
