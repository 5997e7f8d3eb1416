package io.spectrum.board;

import io.spectrum.link.LivenessProbe;
import io.spectrum.link.Link;
import io.spectrum.link.serial.SerialLink;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.RemoteClient;
import io.spectrum.node.api.NodePath;

/**
 * The liveness ping: when a link finds a peer quiet for its ping interval, send that peer a FWD
 * READ of {@code /$node/caps}. Its answer (the extensions map, SETTINGS{core, rfc0035, topic}) is
 * traffic, which is what refreshes the link's liveness clock; a peer that does not answer within
 * the link's timeout is reported down. At most one ping per (link, peer) is outstanding: the
 * previous request handle is released before a new ping goes out. Runs on the node's thread
 * (links call it from inside {@code node.poll()}).
 */
public final class CapsProbe implements LivenessProbe {
    public static final NodePath CAPS = NodePath.of("/$node/caps");

    private final NarrowNode node;
    private final Link[] links;
    private final int maxPeers;
    /** Outstanding ping request handle per (installed link, peer), or -1. */
    private final int[] pending;
    private int linkCount;
    private long sent;
    private long answered;

    public CapsProbe(NarrowNode node, int maxLinks, int maxPeers) {
        this.node = node;
        this.links = new Link[maxLinks];
        this.maxPeers = maxPeers;
        this.pending = new int[maxLinks * maxPeers];
        java.util.Arrays.fill(pending, -1);
    }

    /** Wires this probe into a link (UDP or serial); other links have no liveness hook. */
    public void install(Link link) {
        if (linkCount == links.length) {
            throw new IllegalStateException("CapsProbe holds " + links.length + " links");
        }
        links[linkCount++] = link;
        if (link instanceof UdpLink u) {
            u.setLivenessProbe(this);
        } else if (link instanceof SerialLink s) {
            s.setLivenessProbe(this);
        }
    }

    private int slot(Link link, int peer) {
        if (peer < 0 || peer >= maxPeers) {
            return -1;
        }
        for (int i = 0; i < linkCount; i++) {
            if (links[i] == link) {
                return i * maxPeers + peer;
            }
        }
        return -1;
    }

    @Override
    public void probe(Link link, int peer) {
        int s = slot(link, peer);
        if (s < 0) {
            return;
        }
        RemoteClient rc = node.remote();
        int old = pending[s];
        if (old >= 0) {
            if (rc.requestState(old) == RemoteClient.DONE) {
                answered++;
            }
            rc.release(old);
        }
        int k = rc.read(link, peer, CAPS);
        pending[s] = k;
        if (k >= 0) {
            sent++;
        }
    }

    /** Releases answered pings (call from the node's loop). */
    public void sweep() {
        RemoteClient rc = node.remote();
        for (int i = 0; i < pending.length; i++) {
            int k = pending[i];
            if (k >= 0 && rc.requestState(k) == RemoteClient.DONE) {
                answered++;
                rc.release(k);
                pending[i] = -1;
            }
        }
    }

    public long sent() {
        return sent;
    }

    public long answered() {
        return answered;
    }
}
