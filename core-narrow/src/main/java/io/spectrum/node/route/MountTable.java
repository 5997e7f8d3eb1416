package io.spectrum.node.route;

import io.spectrum.link.Link;
import io.spectrum.stats.ResourceCounter;
import io.spectrum.wire.FwdRewrite;
import io.spectrum.wire.PathKeys;
import io.spectrum.wire.WireError;

/**
 * The router's fixed table of runs: each entry is a run of packed PATH segment records and the
 * (link, peer) it names. Three kinds:
 *
 * <ul>
 *   <li>{@link #SINGLE}: a single-peer mount (a dialed peer, a serial line): run {@code /name}, both
 *       the prefix that routes to the peer and the run its frames' src grows by;</li>
 *   <li>{@link #LISTENER}: a multi-peer listener link's mount: run {@code /name}; it routes nowhere
 *       by itself (a residual below it that names no live peer is {@code path::invalid});</li>
 *   <li>{@link #PEER}: one peer of a listener, made when its first frame needs a return route:
 *       run {@code /name/<peer>-<gen>}, with a generation drawn from a counter that never repeats,
 *       so a reused peer handle never receives an earlier peer's replies.</li>
 * </ul>
 *
 * Sized once: {@code mounts} SINGLE and LISTENER entries plus {@code peers} PEER entries, each run
 * at most {@link #RUN_BYTES}. Mount operations are configuration-time; {@link #match},
 * {@link #inbound} and {@link #peerDown} allocate nothing. Single-threaded, like the node.
 */
public final class MountTable {
    /** Kind of an unused entry. */
    public static final int FREE = 0;
    /** Kind of a single-peer mount: routes to its (link, peer) and names that peer's src. */
    public static final int SINGLE = 1;
    /** Kind of a listener link's mount: a name only; routes nowhere by itself. */
    public static final int LISTENER = 2;
    /** Kind of one listener peer's return route, {@code /name/<peer>-<gen>}. */
    public static final int PEER = 3;
    /** One name record (1 + 64 bytes) and one {@code peer-gen} record (1 + 41). */
    static final int RUN_BYTES = 112;

    private final int mountCapacity;
    private final int[] kind;
    private final Link[] link;
    private final int[] peer;
    private final int[] runLen;
    /** A single-peer mount whose root {@code :children[]} this node answers from its own vertices. */
    private final boolean[] listedHere;
    private final byte[] runs;
    private long generation;
    /** One past the highest entry ever used: scans stop here (0 on a node that routes nothing). */
    private int limit;
    private final ResourceCounter mountResource;
    private final ResourceCounter peerResource;

    /**
     * @param mounts SINGLE and LISTENER entries (names)
     * @param peers PEER entries (listener peers with a live return route)
     */
    public MountTable(int mounts, int peers) {
        mountCapacity = mounts;
        int n = mounts + peers;
        kind = new int[n];
        link = new Link[n];
        peer = new int[n];
        runLen = new int[n];
        listedHere = new boolean[n];
        runs = new byte[(n + 1) * RUN_BYTES]; // the last run area is the scratch of a name being checked
        mountResource = new ResourceCounter("node.mounts", mounts);
        peerResource = new ResourceCounter("node.routedPeers", peers);
    }

    /**
     * Mounts a single-peer link under {@code name} (one PATH segment, ASCII, not starting with
     * {@code $}: those names are the node's own).
     *
     * @return status: OK, PATH_INVALID (not a segment), PATH_IN_USE (the name is mounted),
     *     FLOW_BACKPRESSURE (table full, counted)
     */
    public int mount(String name, Link l, int p) {
        return add(name, SINGLE, l, p);
    }

    /** Mounts a multi-peer listener link under {@code name}; status as {@link #mount}. */
    public int mountListener(String name, Link l) {
        return add(name, LISTENER, l, -1);
    }

    private int add(String name, int k, Link l, int p) {
        if (l == null) {
            return WireError.TRANSPORT_DOWN;
        }
        int free = -1;
        for (int i = 0; i < mountCapacity; i++) {
            if (kind[i] == FREE) {
                free = free < 0 ? i : free;
            }
        }
        int n = FwdRewrite.writeSegment(name, runs, scratchOff(), RUN_BYTES);
        if (n < 0 || PathKeys.hasReservedSegment(runs, scratchOff(), n)) {
            return WireError.PATH_INVALID; // not a segment, or a $ name (the node's own: $node, $reply)
        }
        if (named(runs, scratchOff(), n) >= 0) {
            return WireError.PATH_IN_USE;
        }
        if (free < 0) {
            mountResource.countRefused();
            return WireError.FLOW_BACKPRESSURE;
        }
        System.arraycopy(runs, scratchOff(), runs, free * RUN_BYTES, n);
        kind[free] = k;
        link[free] = l;
        peer[free] = p;
        runLen[free] = n;
        listedHere[free] = false;
        limit = Math.max(limit, free + 1);
        mountResource.taken();
        return WireError.OK;
    }

    /**
     * Has this node answer {@code :children[]} of exactly {@code /name} (a single-peer mount) from
     * its own vertices under {@code /name}, for a peer whose root cannot be listed (a libtracer
     * reference node answers {@code tr::path::not_found} for {@code /}); the owner creates those.
     *
     * @return status: OK, or PATH_NOT_FOUND when no single-peer mount has that name
     */
    public int listHere(String name) {
        int n = FwdRewrite.writeSegment(name, runs, scratchOff(), RUN_BYTES);
        int m = n < 0 ? -1 : named(runs, scratchOff(), n);
        if (m < 0 || kind[m] != SINGLE) {
            return WireError.PATH_NOT_FOUND;
        }
        listedHere[m] = true;
        return WireError.OK;
    }

    /** True when {@code :children[]} of mount {@code i}'s root is answered here ({@link #listHere}). */
    public boolean listedHere(int i) {
        return listedHere[i];
    }

    /** Unmounts {@code name} (and, for a listener, every peer route under it): OK or PATH_NOT_FOUND. */
    public int unmount(String name) {
        int n = FwdRewrite.writeSegment(name, runs, scratchOff(), RUN_BYTES);
        int m = n < 0 ? -1 : named(runs, scratchOff(), n);
        if (m < 0) {
            return WireError.PATH_NOT_FOUND;
        }
        if (kind[m] == LISTENER) {
            for (int i = mountCapacity; i < kind.length; i++) {
                if (kind[i] == PEER && link[i] == link[m]) {
                    free(i);
                }
            }
        }
        free(m);
        return WireError.OK;
    }

    /** The SINGLE or LISTENER entry whose run is exactly {@code b[off, off+len)}, or -1. */
    private int named(byte[] b, int off, int len) {
        for (int i = 0; i < mountCapacity; i++) {
            if (kind[i] != FREE && runLen[i] == len && FwdRewrite.runLength(runs, i * RUN_BYTES, len, b, off, len) == len) {
                return i;
            }
        }
        return -1;
    }

    private int scratchOff() {
        return kind.length * RUN_BYTES;
    }

    /**
     * The entry whose run is the longest whole-record prefix of the PATH body
     * {@code b[off, off+len)}, or -1 (no mount: the node is the terminus).
     */
    public int match(byte[] b, int off, int len) {
        int best = -1;
        for (int i = 0; i < limit; i++) {
            if (kind[i] != FREE && (best < 0 || runLen[i] > runLen[best])
                    && FwdRewrite.runLength(b, off, len, runs, i * RUN_BYTES, runLen[i]) > 0) {
                best = i;
            }
        }
        return best;
    }

    /**
     * The entry naming the return route of frames from (link, peer): its SINGLE mount, or its PEER
     * entry under a listener mount of that link (made now, with a fresh generation, if it has none);
     * -1 when the link is not mounted, or when the peer table is full (counted as a refusal).
     */
    public int inbound(Link l, int p) {
        int listener = -1;
        for (int i = 0; i < mountCapacity; i++) {
            if (link[i] == l) {
                if (kind[i] == SINGLE && peer[i] == p) {
                    return i;
                }
                if (kind[i] == LISTENER) {
                    listener = i;
                }
            }
        }
        if (listener < 0) {
            return -1;
        }
        int free = -1;
        for (int i = mountCapacity; i < kind.length; i++) {
            if (i >= limit && free >= 0) {
                break; // nothing in use beyond the limit
            }
            if (kind[i] == PEER && link[i] == l && peer[i] == p) {
                return i;
            }
            if (kind[i] == FREE && free < 0) {
                free = i;
            }
        }
        if (free < 0) {
            peerResource.countRefused();
            return -1;
        }
        final int at = free * RUN_BYTES;
        final int nameLen = runLen[listener];
        System.arraycopy(runs, listener * RUN_BYTES, runs, at, nameLen);
        // the peer record after the name record: "<peer>-<gen>"
        final int n = FwdRewrite.writeNumberSegment(p & 0xFFFFFFFFL, ++generation, runs, at + nameLen, RUN_BYTES - nameLen);
        kind[free] = PEER;
        link[free] = l;
        peer[free] = p;
        runLen[free] = nameLen + n;
        limit = Math.max(limit, free + 1);
        peerResource.taken();
        return free;
    }

    /** Forgets the return routes of (link, peer) under listener mounts: the peer went down. */
    public void peerDown(Link l, int p) {
        for (int i = mountCapacity; i < limit; i++) {
            if (kind[i] == PEER && link[i] == l && peer[i] == p) {
                free(i);
            }
        }
    }

    /** Unmounts everything on {@code l} (the link went away). */
    public void linkGone(Link l) {
        for (int i = 0; i < kind.length; i++) {
            if (kind[i] != FREE && link[i] == l) {
                free(i);
            }
        }
    }

    private void free(int i) {
        if (i < mountCapacity) {
            mountResource.returned();
        } else {
            peerResource.returned();
        }
        kind[i] = FREE;
        link[i] = null;
        runLen[i] = 0;
    }

    /**
     * Entry {@code i}'s kind: {@link #FREE}, {@link #SINGLE}, {@link #LISTENER} or {@link #PEER};
     * {@code 0 <= i < capacity()}.
     */
    public int kind(int i) {
        return kind[i];
    }

    /** The link entry {@code i} routes over, or {@code null} for a free entry. */
    public Link link(int i) {
        return link[i];
    }

    /**
     * The peer handle entry {@code i} routes to on {@link #link(int)} (meaningful for SINGLE and
     * PEER).
     */
    public int peer(int i) {
        return peer[i];
    }

    /** The run's bytes live in a table-owned buffer; read them through {@link #copyRun} or the router. */
    int runOffset(int i) {
        return i * RUN_BYTES;
    }

    /** Bytes of entry {@code i}'s run (packed PATH segment records), 0 for a free entry. */
    public int runLength(int i) {
        return runLen[i];
    }

    byte[] runs() {
        return runs;
    }

    /** Copies entry {@code i}'s run into {@code out} (diagnostics, tests). @return its length. */
    public int copyRun(int i, byte[] out, int off) {
        System.arraycopy(runs, i * RUN_BYTES, out, off, runLen[i]);
        return runLen[i];
    }

    /** Entries, free or not (for walking with {@link #kind}). */
    public int capacity() {
        return kind.length;
    }

    /** Mount names: capacity, in use, peak, refused, dropped. */
    public ResourceCounter mountResource() {
        return mountResource;
    }

    /** Listener peers with a return route: capacity, in use, peak, refused, dropped. */
    public ResourceCounter peerResource() {
        return peerResource;
    }
}
