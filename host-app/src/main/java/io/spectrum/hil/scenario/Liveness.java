package io.spectrum.hil.scenario;

import io.spectrum.hil.client.BoardClient;
import io.spectrum.hil.client.Tlv;
import io.spectrum.hil.client.Wire;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.TlvType;

/** Recognises the board's own liveness traffic, which may arrive at any time and is not a reaction. */
final class Liveness {
    private Liveness() {
    }

    /** A FWD READ of the host's {@code /$node/caps}: the board pinging a quiet peer. */
    static boolean isPing(Tlv f) {
        if (f.type() != TlvType.FWD || BoardClient.opOf(f) != FwdView.OP_READ) {
            return false;
        }
        Tlv dst = f.child(1);
        return dst != null && dst.type() == TlvType.PATH && Wire.pathText(dst.payload()).equals(DemoBoard.CAPS);
    }
}
