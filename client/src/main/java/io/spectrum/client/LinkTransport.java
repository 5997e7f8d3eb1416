package io.spectrum.client;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;

/**
 * A {@link Transport} over one peer of a {@link Link}. Another frame handler may ride the same
 * link ({@link #alsoTo}): it sees every inbound frame after the client, e.g. a host node that
 * answers the board's liveness pings while the client polls.
 */
public final class LinkTransport implements Transport {
    private final Link link;
    private final int peer;
    private final FrameHandler handler = this::onFrame;
    private Sink sink;
    private FrameHandler rider;

    /** A transport to {@code peer} of {@code link}; the link is polled only while the client waits. */
    public LinkTransport(Link link, int peer) {
        this.link = link;
        this.peer = peer;
    }

    /** The link this transport sends on and polls; closing the transport closes it. */
    public Link link() {
        return link;
    }

    /** Also hands every inbound frame to {@code h} (null removes it). */
    public void alsoTo(FrameHandler h) {
        rider = h;
    }

    /** The link's own answer ({@link Link#setReadiness}): a client stream link's socket is watched. */
    @Override
    public boolean wakes(io.spectrum.link.Readiness r) {
        return link.setReadiness(r);
    }

    @Override
    public int send(byte[] frame, int off, int len) {
        return link.send(peer, frame, off, len);
    }

    @Override
    public int poll(Sink s, int max) {
        sink = s;
        try {
            return link.poll(handler, max);
        } finally {
            sink = null;
        }
    }

    private void onFrame(Link l, int p, byte[] buf, int off, int len) {
        if (rider != null) {
            rider.onFrame(l, p, buf, off, len);
        }
        if (sink != null) {
            sink.frame(buf, off, len);
        }
    }

    @Override
    public void close() {
        link.close();
    }
}
