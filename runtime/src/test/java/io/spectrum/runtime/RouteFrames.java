package io.spectrum.runtime;

import io.spectrum.node.api.NodePath;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;

import java.util.Arrays;

/** Request parts the routing interop tests send (FWD itself: {@link PlainPeerSeesV1Test#fwd}). */
final class RouteFrames {
    private RouteFrames() {
    }

    /** VALUE u32 {@code v}. */
    static byte[] value(int v) {
        byte[] b = new byte[8];
        int n = new TlvWriter().wrap(b, 0, b.length).value(v, 4).length();
        return Arrays.copyOf(b, n);
    }

    /** FIELD {@code :subscribers[]} (an append). */
    static byte[] subscribersAppend() {
        byte[] b = new byte[32];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FIELD).leaf(TlvType.NAME, "subscribers".getBytes()).value(1, 1).end();
        return Arrays.copyOf(b, w.length());
    }

    /** SUBSCRIBER{PATH target}. */
    static byte[] subscriber(String target) {
        byte[] b = new byte[64];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.SUBSCRIBER).raw(NodePath.of(target).tlv()).end();
        return Arrays.copyOf(b, w.length());
    }
}
