package io.spectrum.link;

/**
 * Asked by a link to probe a peer that has been silent for the link's ping interval. The node
 * answers by sending a liveness request on that link (a FWD READ of the peer's {@code $node/caps});
 * any frame the peer sends back refreshes the link's liveness clock. Without a probe a link only
 * notices silence and reports {@link PeerListener#onPeerDown} after its timeout.
 */
public interface LivenessProbe {
    /**
     * Sends a liveness request to {@code peer} of {@code link}; called on the thread that polls the
     * link, must not block.
     */
    void probe(Link link, int peer);
}
