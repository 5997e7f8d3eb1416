package io.spectrum.client;

import io.spectrum.node.ServingNode;
import io.spectrum.wire.WireError;

/**
 * A {@link Transport} into a local node through its owner door
 * ({@link ServingNode#handleOwnerRequest}, either core): each request is answered synchronously and its reply
 * handed out on the next poll. Must be used on the node's thread.
 */
public final class OwnerTransport implements Transport {
    private final ServingNode node;
    private final byte[] reply = new byte[64 * 1024];
    private int pending;

    /** A transport into {@code node}'s owner door; use it only on the node's thread. */
    public OwnerTransport(ServingNode node) {
        this.node = node;
    }

    @Override
    public int send(byte[] frame, int off, int len) {
        int n = node.handleOwnerRequest(frame, off, len, reply, 0, reply.length);
        if (n < 0) {
            pending = 0;
            return -n;
        }
        pending = n;
        return WireError.OK;
    }

    @Override
    public int poll(Sink sink, int max) {
        if (pending == 0 || max <= 0) {
            return 0;
        }
        int n = pending;
        pending = 0;
        sink.frame(reply, 0, n);
        return 1;
    }
}
