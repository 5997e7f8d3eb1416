package io.spectrum.node;

import io.spectrum.stats.ResourceCounter;

/**
 * Which remote peers announced Spectrum's extensions ({@link io.spectrum.wire.Extensions}), and at
 * what version: a fixed table of (link index, peer, version) entries, searched linearly. A peer
 * that is not in it is a plain libtracer v1 peer and is answered byte-for-byte v1. An entry lives
 * until its peer goes down. A full table records nobody new (counted as a refusal): that peer is
 * then answered as a plain one, which a v1-speaking client always understands.
 */
final class PeerExtensions {
    private final int[] link;
    private final int[] peer;
    private final int[] version;
    private int used;
    final ResourceCounter resource;

    PeerExtensions(int capacity) {
        link = new int[capacity];
        peer = new int[capacity];
        version = new int[capacity];
        resource = new ResourceCounter("node.announcedPeers", capacity);
    }

    /** Records (or updates) the version (link, peer) announced; 0 is not an announcement. */
    void announce(int li, int p, int v) {
        if (v <= 0 || li < 0) {
            return;
        }
        int i = find(li, p);
        if (i >= 0) {
            version[i] = v;
            return;
        }
        if (used == link.length) {
            resource.refused();
            return;
        }
        link[used] = li;
        peer[used] = p;
        version[used] = v;
        used++;
        resource.taken();
    }

    /** The version (link, peer) announced, 0 for a plain v1 peer. */
    int version(int li, int p) {
        int i = find(li, p);
        return i < 0 ? 0 : version[i];
    }

    /** Forgets a peer that went down (a new peer in its place has to announce again). */
    void forget(int li, int p) {
        int i = find(li, p);
        if (i < 0) {
            return;
        }
        used--;
        link[i] = link[used];
        peer[i] = peer[used];
        version[i] = version[used];
        resource.returned();
    }

    private int find(int li, int p) {
        for (int i = 0; i < used; i++) {
            if (link[i] == li && peer[i] == p) {
                return i;
            }
        }
        return -1;
    }
}
