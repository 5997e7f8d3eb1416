package io.spectrum.hil;

import io.spectrum.client.PeerClient;
import io.spectrum.hil.oracle.Tlv;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.StatusView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * Everything the board sent during a run, in arrival order: the conformance evidence the scenarios
 * look back at ("nothing but the reply came back", "the latched delivery came before the reply",
 * "no RESULT for a damaged frame"). It taps the one client's inbound frames
 * ({@link PeerClient#setTap}); each frame is kept raw, and as an oracle {@link Tlv} tree when the
 * codec accepts it, else with its refusal code.
 */
public final class FrameLog implements PeerClient.FrameTap {
    /** One frame that arrived: decoded, or with the codec's refusal code. */
    public record Inbound(long seq, long nanos, Tlv frame, int refusal, byte[] raw) {
        /** The FWD opcode as {@link FwdView} reads it, or -1 for anything else. */
        public int opcode() {
            FwdView f = frame == null ? null : frame.asFwd();
            return f == null ? -1 : f.opcode();
        }

        /** The dst PATH of a FWD as text, or null. */
        public String dst() {
            FwdView f = frame == null ? null : frame.asFwd();
            if (f == null || f.index().type(f.dst()) != TlvType.PATH) {
                return null;
            }
            TlvIndex x = f.index();
            return io.spectrum.hil.oracle.Wire.pathText(
                    Arrays.copyOfRange(x.buffer(), x.bodyOffset(f.dst()), x.bodyOffset(f.dst()) + x.bodyLength(f.dst())));
        }

        /** True for a REPLY of kind ERROR. */
        public boolean isErrorReply() {
            FwdView f = frame == null ? null : frame.asFwd();
            return f != null && f.opcode() == FwdView.OP_REPLY && f.kind() == FwdView.KIND_ERROR;
        }

        /** The registry code of an ERROR reply (read by {@link StatusView}), -1 otherwise. */
        public int errorCode() {
            FwdView f = isErrorReply() ? frame.asFwd() : null;
            return f == null ? -1 : StatusView.errorCode(f.index(), f.payload(), -1);
        }

        /** True for a REPLY addressed to {@code route}. */
        public boolean isReplyTo(String route) {
            return opcode() == FwdView.OP_REPLY && route.equals(dst());
        }
    }

    private final List<Inbound> inbound = new ArrayList<>();
    private int refused;

    @Override
    public void frame(boolean outbound, byte[] buf, int off, int len) {
        if (outbound) {
            return;
        }
        byte[] raw = Arrays.copyOfRange(buf, off, off + len);
        int code = Tlv.refusal(raw);
        if (code != WireError.OK) {
            refused++;
        }
        inbound.add(new Inbound(inbound.size() + 1L, System.nanoTime(), code == WireError.OK ? Tlv.decode(raw) : null,
                code, raw));
    }

    /** A position in the record after polling what is waiting; frames after it are "new". */
    public long mark(PeerClient c) {
        c.pumpOnce();
        return inbound.size();
    }

    /** The frames the board sent after {@code mark} (from {@link #mark}), oldest first; a copy. */
    public List<Inbound> since(long mark) {
        return new ArrayList<>(inbound.subList((int) Math.min(mark, inbound.size()), inbound.size()));
    }

    /** Frames the codec refused. */
    public int refused() {
        return refused;
    }

    /** Polls {@code c} until a decoded frame after {@code mark} matches, or {@code max} passes; null then. */
    public Inbound await(PeerClient c, long mark, Predicate<Inbound> match, Duration max) {
        c.pumpUntil(() -> first(mark, match) != null, max);
        return first(mark, match);
    }

    private Inbound first(long mark, Predicate<Inbound> match) {
        for (Inbound in : since(mark)) {
            if (in.frame() != null && match.test(in)) {
                return in;
            }
        }
        return null;
    }
}
