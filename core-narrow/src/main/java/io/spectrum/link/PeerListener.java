package io.spectrum.link;

/** Told when a link learns a peer and when it loses one (liveness timeout, port gone). */
public interface PeerListener {
    /**
     * {@code peer} of {@code link} is up: the link heard a well-shaped frame from it (or connected
     * it). Called on the thread that drives the node.
     */
    void onPeerUp(Link link, int peer);

    /**
     * {@code peer} of {@code link} is down (silent past the link's timeout, or its port or
     * connection went); state kept for it should be reaped. Called on the thread that drives the
     * node.
     */
    void onPeerDown(Link link, int peer);
}
