package io.spectrum.hil.scenario;

import io.spectrum.hil.FrameLog.Inbound;
import io.spectrum.wire.FwdView;

/** Recognises the board's own liveness traffic, which may arrive at any time and is not a reaction. */
final class Liveness {
    private Liveness() {
    }

    /** A FWD READ of the host's {@code /$node/caps}: the board pinging a quiet peer. */
    static boolean isPing(Inbound f) {
        return f.opcode() == FwdView.OP_READ && DemoBoard.CAPS.equals(f.dst());
    }
}
