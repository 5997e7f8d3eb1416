package io.spectrum.link;

/**
 * The peer-liveness rules a link applies to its peer handles 0..peers-1, shared by every link:
 * a frame from a peer marks it heard (and up, reported {@link PeerListener#onPeerUp}); a peer silent
 * for the ping interval is offered to the {@link LivenessProbe}; silent for the peer timeout it is
 * reported {@link PeerListener#onPeerDown}. When the owner itself was away (not polled) for longer
 * than the timeout, its peers have timed it out, so every up peer is reported down.
 *
 * <p>A timeout of 0 (or less) turns silence detection off: peers only go down when the link says
 * so ({@link #down}, {@link #allDown}). Whether a down peer is still probed is the link's choice
 * ({@code probeWhileDown}): a dialer or a point-to-point wire keeps knocking, a listener cannot
 * reach a peer that has not spoken. How often {@link #check} runs is also the link's business.
 *
 * <p>Arrays are sized once at construction; no method allocates.
 */
public final class PeerLiveness {
    private final Link owner;
    private final long peerTimeout;
    private final long pingInterval;
    private final boolean probeWhileDown;
    private final boolean[] up;
    private final long[] lastHeard;
    private final long[] lastProbe;
    private long lastPollAt;
    private PeerListener listener;
    private LivenessProbe probe;

    /**
     * @param owner          the link reported to the listener and the probe
     * @param peers          number of peer handles
     * @param peerTimeout    silence (ns) after which an up peer is reported down; 0 = never
     * @param pingInterval   silence (ns) after which a peer is probed
     * @param probeWhileDown whether a down peer is still probed every ping interval
     * @param now            the owner's clock now (start of the first poll gap)
     */
    public PeerLiveness(Link owner, int peers, long peerTimeout, long pingInterval, boolean probeWhileDown,
                        long now) {
        this.owner = owner;
        this.peerTimeout = peerTimeout;
        this.pingInterval = pingInterval;
        this.probeWhileDown = probeWhileDown;
        this.up = new boolean[peers];
        this.lastHeard = new long[peers];
        this.lastProbe = new long[peers];
        this.lastPollAt = now;
    }

    /** Sets the one listener told of up and down transitions ({@code null} for none). */
    public void setListener(PeerListener listener) {
        this.listener = listener;
    }

    /** Sets the hook that probes silent peers ({@code null}: silent peers are only timed out). */
    public void setProbe(LivenessProbe probe) {
        this.probe = probe;
    }

    /** Number of peer handles tracked, fixed at construction. */
    public int peers() {
        return up.length;
    }

    /**
     * True when {@code peer} is up (heard and not since reported down); false for an out-of-range
     * handle.
     */
    public boolean isUp(int peer) {
        return peer >= 0 && peer < up.length && up[peer];
    }

    /** When the peer was last heard (clock ns); 0 before it ever was. */
    public long lastHeard(int peer) {
        return lastHeard[peer];
    }

    /**
     * Call at the start of every poll: if the owner was away longer than the timeout, reports every
     * up peer down (their side has timed this one out and dropped what it held).
     */
    public void polled(long now) {
        if (peerTimeout > 0 && now - lastPollAt > peerTimeout) {
            allDown();
        }
        lastPollAt = now;
    }

    /** A well-shaped frame came from the peer: refreshes its clocks and reports it up if it was down. */
    public void heard(int peer, long now) {
        lastHeard[peer] = now;
        lastProbe[peer] = now;
        if (!up[peer]) {
            up[peer] = true;
            PeerListener l = listener;
            if (l != null) {
                l.onPeerUp(owner, peer);
            }
        }
    }

    /** Probes silent peers and reports down those silent past the timeout. */
    public void check(long now) {
        for (int i = 0; i < up.length; i++) {
            if (!up[i]) {
                if (probeWhileDown && now - lastProbe[i] >= pingInterval) {
                    probe(i, now);
                }
                continue;
            }
            if (peerTimeout <= 0) {
                continue;
            }
            if (now - lastHeard[i] > peerTimeout) {
                down(i);
            } else if (now - lastProbe[i] >= pingInterval) {
                probe(i, now);
            }
        }
    }

    /** Reports the peer down if it was up (the link lost its transport, or the peer timed out). */
    public void down(int peer) {
        if (up[peer]) {
            up[peer] = false;
            PeerListener l = listener;
            if (l != null) {
                l.onPeerDown(owner, peer);
            }
        }
    }

    /**
     * Reports every up peer down (the link lost its transport, or the owner was away past the
     * timeout).
     */
    public void allDown() {
        for (int i = 0; i < up.length; i++) {
            down(i);
        }
    }

    private void probe(int peer, long now) {
        lastProbe[peer] = now;
        LivenessProbe p = probe;
        if (p != null) {
            p.probe(owner, peer);
        }
    }
}
