package io.spectrum.hil.scenario;

import io.spectrum.hil.Check;
import io.spectrum.hil.HilContext;
import io.spectrum.hil.Scenario;
import io.spectrum.client.PeerClient;
import io.spectrum.hil.FrameLog.Inbound;
import io.spectrum.hil.oracle.Tlv;
import io.spectrum.hil.oracle.Wire;
import io.spectrum.wire.FieldView;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Names;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;
import java.time.Duration;

/** Well-framed requests with invalid FWD contents get typed refusals, and the board keeps serving. */
public final class InvalidFramesScenario implements Scenario {
    @Override
    public String name() {
        return "invalid-fwd-refused";
    }

    @Override
    public String checks() {
        return "unknown op => schema::type_mismatch; ragged dst PATH, FIELD mode 7, [*] on write => path::invalid; "
                + "unknown field => schema::not_found; remote write to a $ vertex => access::denied; a FWD without "
                + "src, with a non-VALUE op, or a REPLY sent as a request is dropped; after each the board answers";
    }

    @Override
    public void run(HilContext ctx) {
        PeerClient c = ctx.client();
        byte[] led = Wire.path(DemoBoard.LED);
        Check.error(c.call(5, led, null, null), WireError.SCHEMA_TYPE_MISMATCH, "FWD with op 5");
        alive(c);
        byte[] ragged = Wire.leaf(TlvType.PATH, new byte[] {5, 'b', 'o'});
        Check.error(c.call(FwdView.OP_READ, ragged, null, null), WireError.PATH_INVALID, "READ with a ragged dst PATH");
        alive(c);
        byte[] badMode = Wire.field("subscribers", -1, 7);
        Check.error(c.read(DemoBoard.LED, badMode), WireError.PATH_INVALID, "READ :subscribers with mode 7");
        alive(c);
        Check.error(c.write(DemoBoard.LED, Wire.field("subscribers", -1, FieldView.MODE_WILDCARD), Names.EMPTY_STATUS.copy()),
                WireError.PATH_INVALID, "WRITE :subscribers[*]");
        alive(c);
        Check.error(c.read(DemoBoard.LED, Wire.field("bogus", -1, FieldView.MODE_SCALAR)), WireError.SCHEMA_NOT_FOUND,
                "READ :bogus");
        alive(c);
        Check.error(c.write(DemoBoard.CAPS, Wire.value(1, 1)), WireError.ACCESS_DENIED,
                "remote WRITE to " + DemoBoard.CAPS);
        alive(c);

        Duration quiet = Duration.ofMillis(Math.max(300, ctx.timeout().toMillis() / 10));
        int dropped = 0;
        byte[][] dropMe = {
            // no src child at all
            Wire.build(w -> w.begin(TlvType.FWD).value(FwdView.OP_READ, 1).raw(led).end()),
            // op is a NAME instead of a VALUE
            Wire.build(w -> w.begin(TlvType.FWD).raw(Wire.name("read")).raw(led)
                    .raw(Wire.path(HilContext.REPLY_PREFIX + "bad-op")).end()),
            // a REPLY arriving as a request
            Wire.fwd(FwdView.OP_REPLY, led, null, Wire.path(HilContext.REPLY_PREFIX + "reply-as-request"),
                    Wire.value(0, 1), Wire.value(1, 1)),
            // an empty FWD container
            new byte[] {0x0F, 0x40, 0x00, 0x00},
        };
        for (byte[] f : dropMe) {
            long mark = ctx.frames().mark(c);
            Check.sent(c.send(f), "send a frame");
            c.pumpFor(quiet);
            for (Inbound in : ctx.frames().since(mark)) {
                // replies to the suite's routes only: the host node's own pings are answered meanwhile
                String dst = in.opcode() != FwdView.OP_REPLY ? null : in.dst();
                if (dst != null && dst.startsWith(HilContext.REPLY_PREFIX)) {
                    Check.that(in.isErrorReply(), "a malformed FWD must not be served, got " + in.frame() + " for "
                            + Tlv.decode(f));
                }
            }
            dropped++;
            alive(c);
        }
        ctx.note("6 typed refusals, " + dropped + " malformed FWDs dropped");
    }

    private static void alive(PeerClient c) {
        Check.result(c.read(DemoBoard.LED), "the board keeps serving");
    }
}
