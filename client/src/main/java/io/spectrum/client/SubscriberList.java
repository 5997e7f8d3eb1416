package io.spectrum.client;

import io.spectrum.node.api.NodePath;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.SubscriberView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The answer to a READ of {@code vertex:subscribers[]}: the reply, and the slots in position order
 * (holes included) read with the wire's {@link SubscriberView}. A refused read has no slots.
 */
public record SubscriberList(Reply reply, List<Slot> slots) {
    /** Copies the slots. */
    public SubscriberList {
        slots = List.copyOf(slots);
    }

    static SubscriberList of(Reply r) {
        byte[] point = r.value();
        List<Slot> out = new ArrayList<>();
        if (!r.ok() || point == null) {
            return new SubscriberList(r, out);
        }
        TlvIndex x = new TlvIndex(Math.max(16, point.length / 4 + 1), 16);
        if (new FrameDecoder().decode(point, 0, point.length, x) != WireError.OK || x.type(0) != TlvType.POINT) {
            return new SubscriberList(r, out);
        }
        SubscriberView view = new SubscriberView(1, 1);
        int i = 0;
        for (int c = x.firstChild(0); c != TlvIndex.NONE; c = x.nextSibling(c), i++) {
            if (view.wrap(x, c) != WireError.OK) {
                out.add(Slot.hole(i));
                continue;
            }
            int t = view.target();
            String target = NodePath.render(point, x.bodyOffset(t), x.bodyLength(t));
            byte[] rec = Arrays.copyOfRange(point, x.start(c), x.end(c));
            out.add(new Slot(i, rec, x.bodyLength(t) == 0 ? "" : target, view.policy(), view.suspended()));
        }
        return new SubscriberList(r, out);
    }

    /** True when the list was read; a refused read has no slots. */
    public boolean ok() {
        return reply.ok();
    }

    /** Slots that hold a subscription. */
    public int subscribers() {
        int n = 0;
        for (Slot s : slots) {
            n += s.isHole() ? 0 : 1;
        }
        return n;
    }

    /** Slots that hold a suspended subscription. */
    public int suspended() {
        int n = 0;
        for (Slot s : slots) {
            n += !s.isHole() && DeliveryPolicy.suspended(s.policy()) ? 1 : 0;
        }
        return n;
    }

    /** The first slot whose target is {@code route}, or -1. */
    public int indexOf(String route) {
        for (Slot s : slots) {
            if (!s.isHole() && s.target().equals(route)) {
                return s.index();
            }
        }
        return -1;
    }
}
