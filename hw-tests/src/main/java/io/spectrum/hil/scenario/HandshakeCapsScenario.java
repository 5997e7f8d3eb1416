package io.spectrum.hil.scenario;

import io.spectrum.hil.Check;
import io.spectrum.hil.HilContext;
import io.spectrum.hil.Scenario;
import io.spectrum.client.Reply;
import io.spectrum.hil.oracle.Tlv;
import io.spectrum.wire.TlvType;

/** The board answers a liveness read of its capability map, naming the core and its extensions. */
public final class HandshakeCapsScenario implements Scenario {
    @Override
    public String name() {
        return "handshake-caps";
    }

    @Override
    public String checks() {
        return "a FWD READ of " + DemoBoard.CAPS + " is answered (route swapped) with SETTINGS naming the core "
                + "protocol version and the extensions (rfc0035, topic) with their versions";
    }

    @Override
    public void run(HilContext ctx) {
        // A freshly opened or reset board may still be starting: retry the first read until the timeout.
        Reply r = Waits.firstAnswer(ctx, DemoBoard.CAPS, ctx.timeout().multipliedBy(3));
        Check.result(r, "read " + DemoBoard.CAPS);
        Tlv caps = r.value() == null ? null : Tlv.decode(r.value());
        Check.that(caps != null && caps.type() == TlvType.SETTINGS,
                "capability map must be a SETTINGS, got " + caps);
        Tlv core = caps.setting("core");
        Check.that(core != null && core.type() == TlvType.VALUE && core.asLong() >= 1,
                "capability map must carry NAME core VALUE version>=1: " + caps);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i + 1 < caps.children().size(); i += 2) {
            Tlv k = caps.children().get(i);
            Tlv v = caps.children().get(i + 1);
            if (k.type() == TlvType.NAME) {
                sb.append(sb.length() == 0 ? "" : " ").append(k.asText()).append('=')
                        .append(v.type() == TlvType.VALUE ? Long.toString(v.asLong()) : v.toString());
            }
        }
        Check.that(caps.setting("rfc0035") != null, "capability map must list the rfc0035 extension: " + sb);
        ctx.note(sb.toString());
    }
}
