package io.spectrum.node.fwd;

import io.spectrum.stats.ResourceCounter;

/**
 * Which remote peers announced Spectrum's extensions ({@link io.spectrum.wire.Extensions}), and at
 * what version: a fixed table of (link index, peer, version) entries, found through a {@link PeerIndex}. A peer
 * that is not in it is a plain libtracer v1 peer and is answered byte-for-byte v1. An entry lives
 * until its peer goes down. A full table records nobody new (counted as a refusal): that peer is
 * then answered as a plain one, which a v1-speaking client always understands.
 *
 * <p>Each entry also carries the peer's holder token (docs/security.md, "Holders and spoofing"):
 * minted the first time the node challenges the peer, sent only to the peer's own address, and
 * {@linkplain #verified verified} once the peer sends it back. From then on the peer's holding
 * requests and slot writes must carry it.
 */
public final class PeerExtensions {
    private final int[] link;
    private final int[] peer;
    private final int[] version;
    private final long[] token;
    private final boolean[] verified;
    private final HoldTokens tokens = new HoldTokens();
    private int used;
    /** Where each (link, peer) entry is. */
    private final PeerIndex index;
    /** The announced peers (in use, peak, refusals). */
    public final ResourceCounter resource;

    PeerExtensions(int capacity) {
        link = new int[capacity];
        peer = new int[capacity];
        version = new int[capacity];
        token = new long[capacity];
        verified = new boolean[capacity];
        index = new PeerIndex(capacity);
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
            resource.countRefused();
            return;
        }
        link[used] = li;
        peer[used] = p;
        index.put(li, p, used);
        version[used] = v;
        token[used] = 0;
        verified[used] = false;
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
        index.remove(li, p);
        if (i != used) {
            index.moved(link[used], peer[used], i);
        }
        link[i] = link[used];
        peer[i] = peer[used];
        version[i] = version[used];
        token[i] = token[used];
        verified[i] = verified[used];
        resource.returned();
    }

    /** The token challenges to (link, peer) carry, minted on first use; -1 when the peer has no entry. */
    long token(int li, int p) {
        int i = find(li, p);
        if (i < 0) {
            return -1;
        }
        if (token[i] == 0) {
            token[i] = tokens.next();
        }
        return token[i];
    }

    /** The peer echoed {@code t}: when it is the peer's token, the peer is verified from now on. */
    void echoed(int li, int p, long t) {
        int i = find(li, p);
        if (i >= 0 && t > 0 && t == token[i]) {
            verified[i] = true;
        }
    }

    /** True once the peer answered a challenge sent to its address (its holding needs its token). */
    boolean verified(int li, int p) {
        int i = find(li, p);
        return i >= 0 && verified[i];
    }

    /** True when {@code t} is the verified peer's token. */
    boolean holds(int li, int p, long t) {
        int i = find(li, p);
        return i >= 0 && verified[i] && t == token[i];
    }

    void seed(long k0, long k1) {
        tokens.seed(k0, k1);
    }

    private int find(int li, int p) {
        return index.find(li, p);
    }
}
