package io.spectrum.hil.scenario;

import io.spectrum.hil.Check;
import io.spectrum.hil.HilFailure;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Requests;
import io.spectrum.client.Reply;
import io.spectrum.hil.oracle.Tlv;
import io.spectrum.hil.oracle.Wire;
import io.spectrum.wire.Names;
import io.spectrum.wire.SubscriberRenderer;
import io.spectrum.wire.SubscriberView;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;
import java.util.Arrays;
import java.util.List;

/** Helpers over a remote vertex's {@code :subscribers} surface (RFC-0035). */
final class Subscribers {
    private Subscribers() {
    }

    /**
     * Reads {@code vertex:subscribers[]}: one element per slot position (RFC-0035 §5.2), an empty
     * STATUS for a hole. An empty list may come back as not_found or as an empty POINT.
     */
    static List<Tlv> list(PeerClient c, String vertex) {
        Reply r = c.read(vertex, Requests.subscribers());
        if (r.isError() && r.code() == WireError.PATH_NOT_FOUND) {
            return List.of();
        }
        Tlv p = Check.value(r, "read " + vertex + ":subscribers[]");
        if (p == null) {
            return List.of();
        }
        Check.equal("POINT", TlvType.name(p.type()), "type of the :subscribers[] answer");
        return p.children();
    }

    /** Slot index of the subscription whose target is {@code route}, or -1. */
    static int slotOf(PeerClient c, String vertex, String route) {
        List<Tlv> l = list(c, vertex);
        for (int i = 0; i < l.size(); i++) {
            if (route.equals(targetOf(l.get(i)))) {
                return i;
            }
        }
        return -1;
    }

    static int requireSlot(PeerClient c, String vertex, String route) {
        int n = slotOf(c, vertex, route);
        if (n < 0) {
            throw new HilFailure("no slot with target " + route + " in " + vertex + ":subscribers[] = "
                    + list(c, vertex));
        }
        return n;
    }

    static String targetOf(Tlv element) {
        if (element.type() != TlvType.SUBSCRIBER) {
            return null;
        }
        Tlv p = element.first(TlvType.PATH);
        return p == null ? null : Wire.pathText(p.payload());
    }

    static boolean isHole(Tlv element) {
        return Names.EMPTY_STATUS.matches(element.encoded());
    }

    /** delivery_policy word of a SUBSCRIBER record (absent reads as 0), read by the wire's {@link SubscriberView}. */
    static int policyOf(Tlv sub) {
        byte[] b = sub.encoded();
        SubscriberView v = new SubscriberView(64, 8);
        return v.wrap(b, 0, b.length) == WireError.OK ? v.policy() : 0;
    }

    /** Clears a slot, ignoring a slot that is already gone (cleanup path). */
    static void clearQuietly(PeerClient c, String vertex, String route) {
        try {
            int n = slotOf(c, vertex, route);
            if (n >= 0) {
                c.clear(vertex, n, -1);
            }
        } catch (RuntimeException | AssertionError ignored) {
            // cleanup after a failure must not hide the failure
        }
    }

    /**
     * RFC-0035 §5.1: the rendering of {@code record} under live state {@code suspended}, by the wire's
     * {@link SubscriberRenderer} (the one renderer), so the suite checks a board's read-back and builds
     * the toggle record with the same rule the node and the host use.
     */
    static byte[] render(Tlv record, boolean suspended) {
        byte[] rec = record.encoded();
        byte[] out = new byte[rec.length + SubscriberRenderer.MAX_GROWTH];
        int n = new SubscriberRenderer().render(rec, 0, rec.length, suspended, out, 0, out.length);
        if (n < 0) {
            throw new HilFailure("cannot render " + record + ": " + WireError.identity(-n));
        }
        return Arrays.copyOf(out, n);
    }
}
