package io.spectrum.hil.scenario;

import io.spectrum.hil.client.BoardClient;
import io.spectrum.hil.client.Tlv;
import io.spectrum.wire.FwdView;

/** Recognises the board's own liveness traffic, which may arrive at any time and is not a reaction. */
final class Liveness {
    private Liveness() {
    }

    /** A FWD READ of the host's {@code /$node/caps}: the board pinging a quiet peer. */
    static boolean isPing(Tlv f) {
        return BoardClient.opOf(f) == FwdView.OP_READ && DemoBoard.CAPS.equals(BoardClient.dstOf(f));
    }
}
