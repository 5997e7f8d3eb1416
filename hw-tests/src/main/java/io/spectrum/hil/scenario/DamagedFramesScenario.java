package io.spectrum.hil.scenario;

import io.spectrum.hil.Check;
import io.spectrum.hil.HilContext;
import io.spectrum.hil.Scenario;
import io.spectrum.client.PeerClient;
import io.spectrum.hil.FrameLog.Inbound;
import io.spectrum.hil.oracle.Wire;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Opt;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;
import java.time.Duration;
import java.util.Random;

/** Damaged frames (bad CRC trailer, line noise) are refused and the board keeps serving. */
public final class DamagedFramesScenario implements Scenario {
    @Override
    public String name() {
        return "damaged-frames";
    }

    @Override
    public String checks() {
        return "a request with a correct CRC-32C or CRC-16 trailer is answered; the same request with one payload "
                + "byte flipped gets no RESULT (dropped, or refused as crc_fail); seeded noise bytes on the serial "
                + "line (when the target can inject them) are dropped; the board answers the next good request";
    }

    @Override
    public void run(HilContext ctx) throws Exception {
        PeerClient c = ctx.client();
        Duration quiet = Duration.ofMillis(Math.max(300, ctx.timeout().toMillis() / 10));
        int refused = 0;
        for (int crcOpt : new int[] {Opt.CR, Opt.CR | Opt.CW}) {
            // control: the same READ with a correct trailer is served
            String good = HilContext.REPLY_PREFIX + "crc-" + crcOpt + "-good";
            long mark = ctx.frames().mark(c);
            Check.sent(c.send(readWithTrailer(good, crcOpt)), "send a frame");
            Inbound in = ctx.frames().await(c, mark, f -> f.isReplyTo(good), ctx.timeout());
            Check.that(in != null, "a READ with a correct " + crcName(crcOpt) + " trailer must be answered");
            Check.that(!in.isErrorReply(), "READ with a correct " + crcName(crcOpt) + " trailer: expected RESULT but got "
                    + in.frame());

            String bad = HilContext.REPLY_PREFIX + "crc-" + crcOpt + "-bad";
            byte[] damaged = readWithTrailer(bad, crcOpt);
            damaged[15] ^= 0x10; // a letter of the dst PATH: length and shape stay valid, the CRC does not
            mark = ctx.frames().mark(c);
            Check.sent(c.send(damaged), "send a frame");
            c.pumpFor(quiet);
            for (Inbound got : ctx.frames().since(mark)) {
                if (got.frame() != null && got.isReplyTo(bad)) {
                    Check.that(got.isErrorReply() && got.errorCode() == WireError.FRAME_CRC_FAIL,
                            "a frame failing its " + crcName(crcOpt) + " check must not be served, got " + got.frame());
                }
            }
            refused++;
        }
        if (ctx.target().canInjectRawBytes()) {
            // Noise lands between frames. Half the bursts end on a delimiter (a damaged frame the
            // deframer drops and counts); the others run into the next frame, which the link may lose
            // too before it resynchronises on that frame's delimiter, so a no-reply READ (empty src)
            // goes first as the frame allowed to be lost.
            Random rnd = new Random(0x5EC7);
            byte[] sacrificial = Wire.fwd(FwdView.OP_READ, Wire.path(DemoBoard.LED), null, Wire.path("/"));
            for (int burst = 0; burst < 8; burst++) {
                byte[] noise = new byte[16 + rnd.nextInt(200)];
                rnd.nextBytes(noise);
                if (burst % 2 == 0) {
                    noise[noise.length - 1] = 0;
                }
                try {
                    ctx.target().injectRawBytes(noise);
                } catch (java.io.IOException e) {
                    // e.g. a real port opened exclusively, or no permission for a second descriptor
                    ctx.note(refused + " damaged frames refused; line noise could not be written ("
                            + e.getMessage() + ")");
                    Check.result(c.read(DemoBoard.CAPS), "the board keeps serving after damaged input");
                    return;
                }
                if (burst % 2 == 1) {
                    Check.sent(c.send(sacrificial), "send a frame");
                }
                Check.result(c.read(DemoBoard.LED), "read after noise burst " + burst);
            }
            ctx.note(refused + " damaged frames refused; 8 noise bursts survived");
        } else {
            ctx.note(refused + " damaged frames refused; line noise not injectable on this target");
        }
        Check.result(c.read(DemoBoard.CAPS), "the board keeps serving after damaged input");
    }

    private static byte[] readWithTrailer(String route, int crcOpt) {
        return Wire.build(w -> w.begin(TlvType.FWD, crcOpt).value(FwdView.OP_READ, 1).raw(Wire.path(DemoBoard.LED))
                .raw(Wire.path(route)).end());
    }

    private static String crcName(int opt) {
        return (opt & Opt.CW) != 0 ? "CRC-16" : "CRC-32C";
    }
}
