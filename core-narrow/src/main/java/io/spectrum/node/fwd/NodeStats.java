package io.spectrum.node.fwd;

import io.spectrum.link.Link;
import io.spectrum.link.LinkStats;
import io.spectrum.link.NodeLinkStats;
import io.spectrum.node.route.FwdRouter;
import io.spectrum.stats.BoundedResource;
import io.spectrum.stats.CounterNames;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.Utf8;
import io.spectrum.wire.WireError;

/**
 * Renders the node's overload counters as the SETTINGS tree the owner writes to
 * {@code /$node/stats}: remote peers READ (or subscribe to) it, nobody but the
 * owner writes it (a {@code $} vertex). It is refreshed from the node loop on a period
 * ({@link io.spectrum.node.api.NodeConfig#statsPeriodNanos()}), never per frame.
 *
 * <pre>
 * SETTINGS{
 *   NAME node.slots, SETTINGS{capacity, in_use, peak, refused, dropped (u64 each)}, ...   every BoundedResource
 *   NAME router, SETTINGS{forwarded u64, refused u64, no_route u64}              the FWD router's hops
 *   NAME link.&lt;id&gt;, SETTINGS{name NAME, capacity/in_use/peak/refused/dropped of its peer table (if any),
 *                           the link's own frames_in, frames_out, bytes_in, bytes_out, dropped_corrupt,
 *                           dropped_oversize, dropped_invalid, dropped_queued, dropped_by_os, send_refused,
 *                           reconnects, peers_refused, peers_evicted, and the node's frames_rejected,
 *                           share_refused, deliveries_dropped  (u64 each)}
 *   NAME peer.&lt;link id&gt;.&lt;peer&gt;, SETTINGS{slots u32, awaits u32, refused u64, dropped u64}  per share entry
 *   NAME links_omitted, VALUE u32    link entries that did not fit the frame
 *   NAME peers_omitted, VALUE u32    share entries that did not fit the frame
 * }
 * </pre>
 * Every counter name is {@link CounterNames}' (the dashboard and {@code /metrics} use the same).
 * Names are converted to bytes once (resources at construction, a link's at its first refresh);
 * a refresh then allocates nothing.
 */
public final class NodeStats {
    private static final byte[] CAPACITY = ascii(CounterNames.CAPACITY);
    private static final byte[] IN_USE = ascii(CounterNames.IN_USE);
    private static final byte[] PEAK = ascii(CounterNames.PEAK);
    private static final byte[] REFUSED = ascii(CounterNames.REFUSED);
    private static final byte[] DROPPED = ascii(CounterNames.DROPPED);
    private static final byte[] NAME = ascii("name");
    private static final byte[] FRAMES_IN = ascii(CounterNames.FRAMES_IN);
    private static final byte[] FRAMES_OUT = ascii(CounterNames.FRAMES_OUT);
    private static final byte[] BYTES_IN = ascii(CounterNames.BYTES_IN);
    private static final byte[] BYTES_OUT = ascii(CounterNames.BYTES_OUT);
    private static final byte[] DROPPED_CORRUPT = ascii(CounterNames.DROPPED_CORRUPT);
    private static final byte[] DROPPED_OVERSIZE = ascii(CounterNames.DROPPED_OVERSIZE);
    private static final byte[] DROPPED_INVALID = ascii(CounterNames.DROPPED_INVALID);
    private static final byte[] DROPPED_QUEUED = ascii(CounterNames.DROPPED_QUEUED);
    private static final byte[] DROPPED_BY_OS = ascii(CounterNames.DROPPED_BY_OS);
    private static final byte[] SEND_REFUSED = ascii(CounterNames.SEND_REFUSED);
    private static final byte[] RECONNECTS = ascii(CounterNames.RECONNECTS);
    private static final byte[] PEERS_REFUSED = ascii(CounterNames.PEERS_REFUSED);
    private static final byte[] PEERS_EVICTED = ascii(CounterNames.PEERS_EVICTED);
    private static final byte[] FRAMES_REJECTED = ascii(CounterNames.FRAMES_REJECTED);
    private static final byte[] SHARE_REFUSED = ascii(CounterNames.SHARE_REFUSED);
    private static final byte[] DELIVERIES_DROPPED = ascii(CounterNames.DELIVERIES_DROPPED);
    private static final byte[] SLOTS = ascii("slots");
    private static final byte[] AWAITS = ascii("awaits");
    private static final byte[] PEERS_OMITTED = ascii("peers_omitted");
    private static final byte[] LINKS_OMITTED = ascii("links_omitted");
    private static final byte[] ROUTER = ascii("router");
    private static final byte[] FORWARDED = ascii("forwarded");
    private static final byte[] NO_ROUTE = ascii("no_route");
    private static final byte[] LINK_PREFIX = ascii("link.");
    private static final byte[] PEER_PREFIX = ascii("peer.");
    /** Bytes one peer entry can take at most (name of two 10-digit numbers + four pairs). */
    private static final int PEER_ENTRY_MAX = 4 + 5 + 10 + 1 + 11 + 4 + 4 * (4 + 8 + 4 + 8);
    /** The closing links_omitted and peers_omitted pairs and the outer container's slack. */
    private static final int TAIL = 4 + LINKS_OMITTED.length + 4 + 4 + 4 + PEERS_OMITTED.length + 4 + 4 + 8;
    /** A peer table's five figures. */
    private static final int RESOURCE_FIGURES = pair(CAPACITY) + pair(IN_USE) + pair(PEAK) + pair(REFUSED)
            + pair(DROPPED);
    /**
     * One link entry's bytes but for its own name and its peer table: the entry's name (an 11-character
     * id at most), the SETTINGS header, the name pair's key and header, and the sixteen counters.
     */
    private static final int LINK_FIXED = 4 + LINK_PREFIX.length + 11 + 4 + 4 + NAME.length + 4
            + pair(FRAMES_IN) + pair(FRAMES_OUT) + pair(BYTES_IN) + pair(BYTES_OUT) + pair(DROPPED_CORRUPT)
            + pair(DROPPED_OVERSIZE) + pair(DROPPED_INVALID) + pair(DROPPED_QUEUED) + pair(DROPPED_BY_OS)
            + pair(SEND_REFUSED) + pair(RECONNECTS) + pair(PEERS_REFUSED) + pair(PEERS_EVICTED)
            + pair(FRAMES_REJECTED) + pair(SHARE_REFUSED) + pair(DELIVERIES_DROPPED);

    private final BoundedResource[] resources;
    private final byte[][] resourceNames;
    private final LinkTable links;
    private final PeerShares shares;
    private final FwdRouter router;
    private final byte[][] linkNames;
    private final byte[] out;
    private final byte[] name = new byte[32];
    private final TlvWriter w = new TlvWriter(4);

    /** A {@code /$node/stats} renderer over {@code resources}, the links, shares and router, sized once for {@code maxLinks} links and frames of {@code frameBytes}. */
    public NodeStats(BoundedResource[] resources, LinkTable links, PeerShares shares, FwdRouter router, int maxLinks,
            int frameBytes) {
        this.resources = resources;
        this.router = router;
        this.links = links;
        this.shares = shares;
        resourceNames = new byte[resources.length][];
        for (int i = 0; i < resources.length; i++) {
            resourceNames[i] = utf8(resources[i].resourceName());
        }
        linkNames = new byte[maxLinks][];
        out = new byte[frameBytes];
    }

    /** The buffer {@link #render} writes into. */
    public byte[] buffer() {
        return out;
    }

    /**
     * Renders the tree into {@link #buffer()} within {@code budget} bytes (the largest value the
     * stats vertex admits); link and share entries that would not fit are left out and counted.
     *
     * @return the tree's length, or a negated code when even the fixed part does not fit
     */
    public int render(int budget) {
        final int cap = Math.min(budget, out.length);
        TlvWriter t = w.wrap(out, 0, cap);
        t.begin(TlvType.SETTINGS);
        for (int i = 0; i < resources.length; i++) {
            BoundedResource r = resources[i];
            t.leaf(TlvType.NAME, resourceNames[i]).begin(TlvType.SETTINGS);
            resource(t, r);
            t.end();
        }
        t.leaf(TlvType.NAME, ROUTER).begin(TlvType.SETTINGS)
                .leaf(TlvType.NAME, FORWARDED).value(router.forwarded(), 8)
                .leaf(TlvType.NAME, REFUSED).value(router.refused(), 8)
                .leaf(TlvType.NAME, NO_ROUTE).value(router.noRoute(), 8)
                .end();
        int linksOmitted = 0;
        for (int i = 0; i < links.count(); i++) {
            int bytes = LINK_FIXED + linkName(i).length + (links.link(i).peers() != null ? RESOURCE_FIGURES : 0);
            if (t.position() + bytes + TAIL > cap) {
                linksOmitted++;
                continue;
            }
            link(t, i);
        }
        int omitted = 0;
        for (int e = 0; e < shares.count(); e++) {
            if (t.position() + PEER_ENTRY_MAX + TAIL > cap) {
                omitted++;
                continue;
            }
            int n = put(PEER_PREFIX, 0);
            n = digits(links.id(shares.linkAt(e)), n);
            name[n++] = '.';
            n = digits(shares.peerAt(e), n);
            t.leaf(TlvType.NAME, name, 0, n).begin(TlvType.SETTINGS)
                    .leaf(TlvType.NAME, SLOTS).value(shares.slotsAt(e), 4)
                    .leaf(TlvType.NAME, AWAITS).value(shares.awaitsAt(e), 4)
                    .leaf(TlvType.NAME, REFUSED).value(shares.refusalsAt(e), 8)
                    .leaf(TlvType.NAME, DROPPED).value(shares.droppedAt(e), 8)
                    .end();
        }
        t.leaf(TlvType.NAME, LINKS_OMITTED).value(linksOmitted, 4);
        t.leaf(TlvType.NAME, PEERS_OMITTED).value(omitted, 4);
        t.end();
        return t.error() == WireError.OK ? t.length() : -t.error();
    }

    private static void resource(TlvWriter t, BoundedResource r) {
        t.leaf(TlvType.NAME, CAPACITY).value(r.capacity(), 8)
                .leaf(TlvType.NAME, IN_USE).value(r.inUse(), 8)
                .leaf(TlvType.NAME, PEAK).value(r.peak(), 8)
                .leaf(TlvType.NAME, REFUSED).value(r.refused(), 8)
                .leaf(TlvType.NAME, DROPPED).value(r.dropped(), 8);
    }

    private void link(TlvWriter t, int i) {
        final Link l = links.link(i);
        byte[] ln = linkName(i);
        int n = put(LINK_PREFIX, 0);
        n = digits(l.id(), n);
        t.leaf(TlvType.NAME, name, 0, n).begin(TlvType.SETTINGS).leaf(TlvType.NAME, NAME).leaf(TlvType.NAME, ln);
        BoundedResource peers = l.peers();
        if (peers != null) {
            resource(t, peers);
        }
        final LinkStats s = l.stats();
        final NodeLinkStats ns = links.stats(i);
        t.leaf(TlvType.NAME, FRAMES_IN).value(s.framesIn(), 8)
                .leaf(TlvType.NAME, FRAMES_OUT).value(s.framesOut(), 8)
                .leaf(TlvType.NAME, BYTES_IN).value(s.bytesIn(), 8)
                .leaf(TlvType.NAME, BYTES_OUT).value(s.bytesOut(), 8)
                .leaf(TlvType.NAME, DROPPED_CORRUPT).value(s.droppedCorrupt(), 8)
                .leaf(TlvType.NAME, DROPPED_OVERSIZE).value(s.droppedOversize(), 8)
                .leaf(TlvType.NAME, DROPPED_INVALID).value(s.droppedInvalid(), 8)
                .leaf(TlvType.NAME, DROPPED_QUEUED).value(s.droppedQueued(), 8)
                .leaf(TlvType.NAME, DROPPED_BY_OS).value(s.droppedByOs(), 8)
                .leaf(TlvType.NAME, SEND_REFUSED).value(s.sendRefused(), 8)
                .leaf(TlvType.NAME, RECONNECTS).value(s.reconnects(), 8)
                .leaf(TlvType.NAME, PEERS_REFUSED).value(s.peersRefused(), 8)
                .leaf(TlvType.NAME, PEERS_EVICTED).value(s.peersEvicted(), 8)
                .leaf(TlvType.NAME, FRAMES_REJECTED).value(ns.framesRejected(), 8)
                .leaf(TlvType.NAME, SHARE_REFUSED).value(ns.shareRefused(), 8)
                .leaf(TlvType.NAME, DELIVERIES_DROPPED).value(ns.deliveriesDropped(), 8)
                .end();
    }

    /** The link's name as bytes, converted once per attached link (the first refresh after attach). */
    private byte[] linkName(int i) {
        byte[] ln = linkNames[i];
        if (ln == null) {
            ln = utf8(links.link(i).name());
            linkNames[i] = ln;
        }
        return ln;
    }

    /** Bytes of one {@code NAME key, VALUE u64} pair. */
    private static int pair(byte[] key) {
        return 4 + key.length + 4 + 8;
    }

    /** Forgets the cached link names (the links were detached). */
    public void linksCleared() {
        for (int i = 0; i < linkNames.length; i++) {
            linkNames[i] = null;
        }
    }

    private int put(byte[] src, int at) {
        System.arraycopy(src, 0, name, at, src.length);
        return at + src.length;
    }

    /** Writes the decimal digits of a non-negative int (negative: '-' then its magnitude) at {@code at}. */
    private int digits(int v, int at) {
        long x = v;
        if (x < 0) {
            name[at++] = '-';
            x = -x;
        }
        long div = 1;
        while (div * 10 <= x) {
            div *= 10;
        }
        for (; div > 0; div /= 10) {
            name[at++] = (byte) ('0' + (x / div) % 10);
        }
        return at;
    }

    private static byte[] ascii(String s) {
        return Utf8.bytes(s);
    }

    private static byte[] utf8(String s) {
        return Utf8.bytes(s);
    }
}
