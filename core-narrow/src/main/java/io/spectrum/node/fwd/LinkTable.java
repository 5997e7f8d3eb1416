package io.spectrum.node.fwd;

import io.spectrum.link.Link;
import io.spectrum.stats.ResourceCounter;
import io.spectrum.wire.WireError;

/**
 * The links attached to a node and the owner's reply sink. A caller is identified by (link index,
 * peer); link index {@link FwdServer#OWNER} is the local host, whose reply, when one is being
 * captured, is copied into the buffer the owner handed in instead of being sent.
 */
public final class LinkTable {
    /** Announced peers a link can hold (the extensions table is sized once from the link capacity). */
    public static final int ANNOUNCED_PEERS_PER_LINK = 8;

    private Link[] links;
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
    LinkTable(int initial, int ceiling, int frameBytes) {
        nodeFrame = frameBytes;
        frameLimit = frameBytes;
        this.ceiling = ceiling;
        links = new Link[Math.max(1, Math.min(initial, ceiling))];
        resource = new ResourceCounter("node.links", ceiling);
        extensions = new PeerExtensions(ceiling * ANNOUNCED_PEERS_PER_LINK);
    }

    /** Adds the link; false (counted as a refusal) at the ceiling. */
    boolean add(Link link) {
        if (count == ceiling) {
            resource.refused();
            return false;
        }
        if (count == links.length) {
            Link[] grown = new Link[(int) Math.min(ceiling, 2L * links.length)];
            System.arraycopy(links, 0, grown, 0, count);
            links = grown;
        }
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

    /** The counters of the link at {@code index}. */
    io.spectrum.link.LinkStats stats(int index) {
        return links[index].stats();
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
            links[li].stats().framesRejected++; // a subset of the link's framesIn
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
}
