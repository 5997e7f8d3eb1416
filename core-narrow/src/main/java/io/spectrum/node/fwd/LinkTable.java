package io.spectrum.node.fwd;

import io.spectrum.link.Link;
import io.spectrum.link.NodeLinkStats;
import io.spectrum.stats.ResourceCounter;
import io.spectrum.wire.WireError;

/**
 * The links attached to a node and the owner's reply sink. A caller is identified by (link index,
 * peer); link index {@link FwdServer#OWNER} is the local host, whose reply, when one is being
 * captured, is copied into the buffer the owner handed in instead of being sent.
 */
public final class LinkTable {
    /** Announced peers per link when the node's config does not size the extensions table itself. */
    public static final int ANNOUNCED_PEERS_PER_LINK = 8;

    private Link[] links;
    /** What the node counts about each link, at the link's index; the node thread is their one writer. */
    private Counts[] counts;
    private final int ceiling;
    private int count;
    /** The node's own frame size, and the smallest frame any attached link carries if smaller. */
    private final int nodeFrame;
    private int frameLimit;
    /** The attached links (in use, peak, refusals). */
    public final ResourceCounter resource;
    /** Which (link, peer) callers asked for Spectrum's extensions. */
    public final PeerExtensions extensions;

    private byte[] ownerReply;
    private int ownerReplyOff;
    private int ownerReplyCap;
    private int ownerReplyLen;

    /**
     * {@code initial} entries now, growing (doubling, on attach only) up to {@code ceiling}; a NARROW
     * node passes its ceiling as the initial size, so its table never grows.
     */
    LinkTable(int initial, int ceiling, int frameBytes, int announcedPeers) {
        nodeFrame = frameBytes;
        frameLimit = frameBytes;
        this.ceiling = ceiling;
        links = new Link[Math.max(1, Math.min(initial, ceiling))];
        counts = new Counts[links.length];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new Counts();
        }
        resource = new ResourceCounter("node.links", ceiling);
        extensions = new PeerExtensions(announcedPeers);
    }

    /** Adds the link; false (counted as a refusal) at the ceiling. */
    boolean add(Link link) {
        if (count == ceiling) {
            resource.countRefused();
            return false;
        }
        if (count == links.length) {
            Link[] grown = new Link[(int) Math.min(ceiling, 2L * links.length)];
            System.arraycopy(links, 0, grown, 0, count);
            links = grown;
            Counts[] more = new Counts[grown.length];
            System.arraycopy(counts, 0, more, 0, count);
            for (int i = count; i < more.length; i++) {
                more[i] = new Counts();
            }
            counts = more;
        }
        counts[count].reset();
        links[count++] = link;
        resource.taken();
        if (link.maxFrame() < frameLimit) {
            frameLimit = link.maxFrame();
        }
        return true;
    }

    /**
     * The largest frame the node may count on delivering: its own frame size or, when smaller, the
     * frame limit of the most restrictive attached link. A value that would not fit a frame of this
     * size together with its envelope is refused when written.
     */
    public int frameLimit() {
        return frameLimit;
    }

    /** What the node counted about the link at {@code index} (read-only). */
    NodeLinkStats stats(int index) {
        return counts[index];
    }

    /** What the node counted about {@code link}, or null when it is not attached. */
    NodeLinkStats stats(Link link) {
        int i = indexOf(link);
        return i < 0 ? null : counts[i];
    }

    /** Counts a request refused because the peer at link {@code li} was over its share. */
    void shareRefused(int li) {
        if (li >= 0) {
            Counts c = counts[li];
            c.shareRefused = c.shareRefused + 1;
        }
    }

    /** Counts a delivery frame not sent because the peer at link {@code li} was over its rate. */
    void deliveryDropped(int li) {
        if (li >= 0) {
            Counts c = counts[li];
            c.deliveriesDropped = c.deliveriesDropped + 1;
        }
    }

    int count() {
        return count;
    }

    /** The index of an attached link, or -1. */
    public int indexOf(Link link) {
        for (int i = 0; i < count; i++) {
            if (links[i] == link) {
                return i;
            }
        }
        return -1;
    }

    Link link(int index) {
        return links[index];
    }

    /** The id of the link at {@code index} (the id an AccessPolicy and the last-publisher query see). */
    public int id(int index) {
        return links[index].id();
    }

    /** Counts an undecodable or malformed request on the link it came over (not for the owner). */
    void dropped(int li) {
        if (li >= 0) {
            Counts c = counts[li];
            c.framesRejected = c.framesRejected + 1; // a subset of the link's framesIn
        }
    }

    /** True when the link at {@code li} knows {@code peer}'s channel is gone ({@link Link#isPeerGone}). */
    boolean gone(int li, int peer) {
        return li >= 0 && li < count && links[li].isPeerGone(peer);
    }

    /** Sends a frame to (link, peer); for the owner, captures it as the owner's reply when it fits. */
    int send(int li, int peer, byte[] b, int len) {
        if (li == FwdServer.OWNER) {
            if (ownerReply != null && len <= ownerReplyCap) {
                System.arraycopy(b, 0, ownerReply, ownerReplyOff, len);
                ownerReplyLen = len;
            }
            return WireError.OK;
        }
        if (li >= 0 && li < count) {
            return links[li].send(peer, b, 0, len);
        }
        return WireError.TRANSPORT_DOWN;
    }

    /**
     * The buffer the link at {@code li} lends for the next frame to {@code peer} ({@link Link#claim}),
     * or null: the owner, an unknown index and a link that lends none now are sent to by {@link #send}.
     */
    byte[] claim(int li, int peer) {
        return li >= 0 && li < count ? links[li].claim(peer) : null;
    }

    /**
     * The bytes a frame may take in the buffer {@code b} the link at {@code li} lent: its room, capped
     * by the node's own frame size, so that a frame fits the lent buffer only when it would have fit
     * the node's transmit buffer and the link's frame limit.
     */
    int claimRoom(int li, byte[] b) {
        return Math.min(Math.min(b.length, links[li].maxFrame()), nodeFrame);
    }

    /** Sends the frame written into the claimed buffer of the link at {@code li} ({@link Link#commitClaim}). */
    int commitClaim(int li, int len) {
        return links[li].commitClaim(len);
    }

    /** Gives the claimed buffer of the link at {@code li} back unsent ({@link Link#abortClaim}). */
    void abortClaim(int li) {
        links[li].abortClaim();
    }

    /** Starts capturing the owner's reply into {@code reply[off, off+cap)}. */
    void captureOwnerReply(byte[] reply, int off, int cap) {
        ownerReply = reply;
        ownerReplyOff = off;
        ownerReplyCap = cap;
        ownerReplyLen = 0;
    }

    /** Stops capturing; returns the captured reply's length (0 when nothing was answered). */
    int endOwnerReply() {
        ownerReply = null;
        return ownerReplyLen;
    }

    void clear() {
        for (int i = 0; i < count; i++) {
            links[i] = null;
        }
        count = 0;
        frameLimit = nodeFrame;
    }

    /**
     * The node's counters about one link: written only by the node thread (through the methods
     * above), volatile for readers on other threads (a dashboard, a stats dump).
     */
    private static final class Counts implements NodeLinkStats {
        private volatile long framesRejected;
        private volatile long shareRefused;
        private volatile long deliveriesDropped;

        void reset() {
            framesRejected = 0;
            shareRefused = 0;
            deliveriesDropped = 0;
        }

        @Override
        public long framesRejected() {
            return framesRejected;
        }

        @Override
        public long shareRefused() {
            return shareRefused;
        }

        @Override
        public long deliveriesDropped() {
            return deliveriesDropped;
        }
    }
}
