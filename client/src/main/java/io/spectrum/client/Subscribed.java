package io.spectrum.client;

import io.spectrum.wire.FieldView;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.WireError;

/**
 * The answer to an append to {@code :subscribers[]}: the reply and, when the node answered the
 * slot identity {@code FIELD{NAME subscribers, VALUE u32 N, VALUE u32 generation, VALUE u8 1}}
 * (docs/extensions.md), its index and generation; -1 where the answer carries none (a plain v1
 * node acknowledges without an identity).
 */
public record Subscribed(Reply reply, int index, long generation) {
    static Subscribed of(Reply r) {
        byte[] v = r.value();
        if (!r.ok() || v == null) {
            return new Subscribed(r, -1, -1);
        }
        TlvIndex x = new TlvIndex(16, 4);
        FieldView f = new FieldView();
        if (new FrameDecoder().decode(v, 0, v.length, x) != WireError.OK || f.wrap(x, 0) != WireError.OK
                || !f.isSubscribers() || !f.hasIndex(0)) {
            return new Subscribed(r, -1, -1);
        }
        return new Subscribed(r, f.index(0), f.generation(0));
    }

    /** True when the append was accepted. */
    public boolean ok() {
        return reply.ok();
    }

    /** The reply's {@code WireError} code ({@code OK} when accepted). */
    public int code() {
        return reply.code();
    }
}
