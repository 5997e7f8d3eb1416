package io.spectrum.hil.client;

import io.spectrum.wire.FwdView;
import io.spectrum.wire.TlvIndex;
import java.util.ArrayList;
import java.util.List;

/**
 * One delivery the board sent to a subscription route: FWD{WRITE, dst = route, src = empty,
 * payload, [extension children]} (digest §5.5).
 */
public final class Delivery {
    private final String route;
    private final Tlv frame;
    private final long receivedNanos;

    Delivery(String route, Tlv frame, long receivedNanos) {
        this.route = route;
        this.frame = frame;
        this.receivedNanos = receivedNanos;
    }

    public String route() {
        return route;
    }

    /** The written TLV (the FWD's payload, as {@link FwdView} reads it). */
    public Tlv payload() {
        FwdView f = frame.asFwd();
        return f == null || f.payload() == TlvIndex.NONE ? null : Tlv.of(f.index(), f.payload());
    }

    /** Children after the payload: where a node puts extension stamps (sequence, stale). */
    public List<Tlv> trailing() {
        FwdView f = frame.asFwd();
        List<Tlv> out = new ArrayList<>();
        for (int c = f == null ? TlvIndex.NONE : f.afterPayload(); c != TlvIndex.NONE; c = f.index().nextSibling(c)) {
            out.add(Tlv.of(f.index(), c));
        }
        return out;
    }

    /**
     * The node's topic stamp, or null: a trailing SETTINGS{NAME "spectrum.topic" SETTINGS{NAME seq
     * VALUE u64, NAME stale VALUE u8, NAME op VALUE u8}} (docs/extensions.md).
     */
    public Tlv stamp() {
        for (Tlv t : trailing()) {
            if (t.type() == io.spectrum.wire.TlvType.SETTINGS) {
                Tlv inner = t.setting(Wire.TOPIC_STAMP_KEY);
                if (inner != null && inner.type() == io.spectrum.wire.TlvType.SETTINGS) {
                    return inner;
                }
            }
        }
        return null;
    }

    /** Stamped sequence number, or -1 without a stamp. */
    public long sequence() {
        Tlv s = stamp();
        Tlv v = s == null ? null : s.setting("seq");
        return v == null ? -1 : v.asLong();
    }

    /** Stamped stale flag; false without a stamp. */
    public boolean stale() {
        Tlv s = stamp();
        Tlv v = s == null ? null : s.setting("stale");
        return v != null && v.asLong() != 0;
    }

    public Tlv frame() {
        return frame;
    }

    public long receivedNanos() {
        return receivedNanos;
    }

    @Override
    public String toString() {
        return route + " <- " + payload();
    }
}
