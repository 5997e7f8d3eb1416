package io.spectrum.link;

/** Told when a link learns a peer and when it loses one (liveness timeout, port gone). */
public interface PeerListener {
    void onPeerUp(Link link, int peer);

    void onPeerDown(Link link, int peer);
}
