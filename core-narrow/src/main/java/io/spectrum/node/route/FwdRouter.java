package io.spectrum.node.route;

import io.spectrum.link.Link;
import io.spectrum.wire.Extensions;
import io.spectrum.wire.FieldView;
import io.spectrum.wire.FwdRewrite;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Names;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

/**
 * FWD forwarding between mounted links, as a libtracer router does (docs/routing.md):
 * a frame whose dst begins with a run of the {@link MountTable} goes to that run's (link, peer)
 * with the run stripped from dst and the arrival's inbound run prepended to src (not on a REPLY),
 * rewritten by {@link FwdRewrite} into this router's one buffer: one copy per hop, no allocation.
 *
 * <p>The node's frame dispatch calls {@link #route} after wrapping the decoded frame and before its
 * terminus; {@link #LOCAL} hands the frame to the terminus. Decisions, in order:
 *
 * <ol>
 *   <li>dst not a PATH, or no run prefixes it: LOCAL (unknown mount ⇒ terminus);</li>
 *   <li>the longest match is a listener's own name: dst exactly the name ⇒ LOCAL; a residual ⇒
 *       ERROR {@code path::invalid} (it names no live peer: libtracer's RFC-0020 rule, never a
 *       broadcast);</li>
 *   <li>the match's (link, peer) is the arrival's own: LOCAL (a frame addressed back where it came
 *       from ends here: the deliveries a host's own remote subscriptions receive on mirror paths
 *       under the mount);</li>
 *   <li>with serve-subscriptions-locally on, a request under a single-peer mount whose FIELD starts
 *       with {@code subscribers}:
 *       LOCAL, and {@link #servedUnderMount()} is true for the terminus;</li>
 *   <li>a READ of {@code :settings.app} or {@code :settings.app.<key>} under a single-peer mount whose
 *       declaration this node holds a current copy of ({@link HeldDeclarations}, a host's copy of
 *       what the board declared): LOCAL, the terminus answers it from that copy (docs/routing.md,
 *       "Declarations under a mount");</li>
 *   <li>a request from a (link, peer) with no inbound run (its link is not mounted, or the peer table
 *       is full): ERROR {@code path::not_found}, counted as no-route;</li>
 *   <li>otherwise forwarded; an AWAIT is held at the next hop by this node (the next hop's caller is
 *       this node, and a Spectrum node gates holding requests by the caller's holder token,
 *       docs/security.md "Holders and spoofing"), so the sender's announcement children are left
 *       out and, when that hop handed this node a token ({@link HeldTokens}), this node's own
 *       announcement with it goes instead; a forwarded ERROR answer loses its trailing SETTINGS (a
 *       challenge there carries the token the far end minted for this node); a frame the rewrite
 *       cannot forward (a request whose src is a PATH_REF) is dropped, as libtracer does; one too
 *       large for the buffer is ERROR {@code flow::backpressure},
 *       an egress that refuses the frame (peer gone) ERROR {@code transport::down}, counted as
 *       no-route.</li>
 * </ol>
 *
 * Refusals answer {@code FWD{REPLY, ERROR}} over the arrival (link, peer), except to a REPLY or an
 * empty src, which are dropped; every one is counted in {@link #refused()}.
 */
public final class FwdRouter {
    /** The holder token this node holds at a (link, peer) it forwards to (0: none handed to it yet). */
    public interface HeldTokens {
        /**
         * The token this node holds at {@code peer} of {@code link}, or 0 when that hop handed it
         * none.
         */
        long heldAt(Link link, int peer);
    }

    /**
     * The declarations of vertices under its mounts a node holds a current copy of, answered here
     * rather than forwarded (a host's copies of its boards' declarations).
     */
    public interface HeldDeclarations {
        /**
         * True when this node holds a current copy of the declaration of the vertex at the PATH
         * body {@code b[off, off + len)}, a vertex behind {@code peer} of {@code link}, and its
         * own store answers {@code :settings.app} of that vertex with it. A copy is current when it
         * was read from that peer since it was last seen to go away or restart, and it allows READ
         * (otherwise the board's own refusal is the answer).
         */
        boolean holds(Link link, int peer, byte[] b, int off, int len);
    }

    /** Not routed: the node's terminus handles the frame. */
    public static final int LOCAL = 0;
    /** Forwarded on its mount's (link, peer). */
    public static final int FORWARDED = 1;
    /** Refused: an ERROR answer was sent back, or the frame dropped. */
    public static final int REFUSED = 2;

    private final MountTable mounts;
    private final boolean serveSubscriptions;
    private final byte[] out;
    private final TlvWriter writer = new TlvWriter(4);
    private final FieldView field = new FieldView();
    private boolean servedUnderMount;
    /** This node's announcement for a forwarded AWAIT, written per hop (no allocation). */
    private final byte[] ann = new byte[64];
    private final TlvWriter annWriter = new TlvWriter(2);
    private HeldTokens held;
    private HeldDeclarations declarations;
    private long forwarded;
    private long refused;
    private long noRoute;

    /**
     * @param frameBytes the largest frame the router writes (the node's frame size)
     * @param serveSubscriptionsUnderMounts answer {@code :subscribers} requests under a mount here
     */
    public FwdRouter(MountTable mounts, int frameBytes, boolean serveSubscriptionsUnderMounts) {
        this.mounts = mounts;
        this.serveSubscriptions = serveSubscriptionsUnderMounts;
        this.out = new byte[frameBytes];
    }

    /**
     * Routes the FWD frame {@code fwd} wraps, which arrived from (inLink, inPeer).
     *
     * @return {@link #LOCAL}, {@link #FORWARDED} or {@link #REFUSED}
     */
    public int route(Link inLink, int inPeer, FwdView fwd) {
        servedUnderMount = false;
        final TlvIndex x = fwd.index();
        final int dst = fwd.dst();
        if (x.type(dst) != TlvType.PATH) {
            return LOCAL;
        }
        final int dstOff = x.bodyOffset(dst);
        final int dstLen = x.bodyLength(dst);
        final int m = mounts.match(x.buffer(), dstOff, dstLen);
        if (m < 0) {
            return LOCAL;
        }
        final int strip = mounts.runLength(m);
        if (mounts.kind(m) == MountTable.LISTENER) {
            return strip == dstLen ? LOCAL : refuse(inLink, inPeer, fwd, WireError.PATH_INVALID, false);
        }
        final Link egress = mounts.link(m);
        final int egressPeer = mounts.peer(m);
        if (egress == inLink && egressPeer == inPeer) {
            return LOCAL;
        }
        final boolean reply = fwd.opcode() == FwdView.OP_REPLY;
        if (!reply && mounts.kind(m) == MountTable.SINGLE && fwd.field() != TlvIndex.NONE
                && field.wrap(x, fwd.field()) == WireError.OK && field.levels() > 0) {
            if (serveSubscriptions && x.payloadEquals(field.nameEntry(0), Names.SUBSCRIBERS)) {
                servedUnderMount = true;
                return LOCAL;
            }
            if (strip == dstLen && mounts.listedHere(m) && fwd.opcode() == FwdView.OP_READ
                    && x.payloadEquals(field.nameEntry(0), Names.CHILDREN)) {
                return LOCAL; // the mount's root is listed here, from its configured top-level names
            }
            if (declarations != null && fwd.opcode() == FwdView.OP_READ && appDeclaration(x)
                    && declarations.holds(egress, egressPeer, x.buffer(), dstOff, dstLen)) {
                return LOCAL; // the node's copy of the board's declaration answers, the board is not asked
            }
        }
        int in = -1;
        if (!reply) {
            in = mounts.inbound(inLink, inPeer);
            if (in < 0) {
                return refuse(inLink, inPeer, fwd, WireError.PATH_NOT_FOUND, true);
            }
        }
        int annLen = -1; // -1: the tail verbatim; else the sender's SETTINGS children replaced by ann[0, annLen)
        if (fwd.opcode() == FwdView.OP_AWAIT) {
            final long token = held == null ? 0 : held.heldAt(egress, egressPeer);
            annLen = token > 0 ? Extensions.announce(annWriter.wrap(ann, 0, ann.length), token).length() : 0;
        } else if (reply && fwd.kind() == FwdView.KIND_ERROR) {
            annLen = 0; // a challenge in it was minted for this node's address: never handed on
        }
        final int n = FwdRewrite.forward(fwd, strip, mounts.runs(), in < 0 ? 0 : mounts.runOffset(in),
                in < 0 ? 0 : mounts.runLength(in), out, 0, out.length, annLen < 0 ? null : ann, 0, Math.max(annLen, 0));
        if (n == -WireError.FRAME_INVALID) {
            refused++; // not forwardable (a request whose src cannot grow): dropped, as libtracer does
            return REFUSED;
        }
        if (n < 0) {
            return refuse(inLink, inPeer, fwd, -n, false);
        }
        final int r = egress.send(egressPeer, out, 0, n);
        if (r != WireError.OK) {
            return refuse(inLink, inPeer, fwd, r == WireError.FLOW_BACKPRESSURE ? r : WireError.TRANSPORT_DOWN, true);
        }
        forwarded++;
        return FORWARDED;
    }

    /**
     * True when the FIELD just wrapped is {@code settings.app} or {@code settings.app.<key>}, all
     * levels scalar: the declaration itself (what {@link HeldDeclarations} copies), not the node's
     * core {@code :settings} or {@code :schema}, which a copy does not hold.
     */
    private boolean appDeclaration(TlvIndex x) {
        final int levels = field.levels();
        if (levels < 2 || levels > 3 || !x.payloadEquals(field.nameEntry(0), Names.SETTINGS)
                || !x.payloadEquals(field.nameEntry(1), Names.APP)) {
            return false;
        }
        for (int i = 0; i < levels; i++) {
            if (field.mode(i) != FieldView.MODE_SCALAR) {
                return false;
            }
        }
        return true;
    }

    private int refuse(Link inLink, int inPeer, FwdView fwd, int code, boolean noRouteCase) {
        refused++;
        if (noRouteCase) {
            noRoute++;
        }
        final int n = FwdRewrite.errorReply(fwd, code, writer.wrap(out, 0, out.length));
        if (n > 0) {
            inLink.send(inPeer, out, 0, n);
        }
        return REFUSED;
    }

    /**
     * True when the last {@link #route} answered LOCAL for a {@code :subscribers} request under a
     * mount that this node serves on the full path (the terminus may create the vertex for an append).
     */
    public boolean servedUnderMount() {
        return servedUnderMount;
    }

    /** Where {@link #route} finds this node's holder token at a hop (the node's remote client). */
    public void heldTokens(HeldTokens tokens) {
        held = tokens;
    }

    /**
     * Where {@link #route} learns which declarations under a mount this node answers itself (null:
     * none, every declaration READ is forwarded).
     */
    public void heldDeclarations(HeldDeclarations copies) {
        declarations = copies;
    }

    /** The peer went down: its listener return routes go (a later peer on the handle gets a new generation). */
    public void peerDown(Link link, int peer) {
        mounts.peerDown(link, peer);
    }

    /**
     * The table of mounts this router matches dst against (configured through it, read by tests and
     * stats).
     */
    public MountTable mounts() {
        return mounts;
    }

    /** Frames forwarded since start. */
    public long forwarded() {
        return forwarded;
    }

    /** Frames refused (answered with an ERROR or dropped) since start. */
    public long refused() {
        return refused;
    }

    /** Of the refusals, those with no route: no inbound run for the sender, or an egress that refused the frame. */
    public long noRoute() {
        return noRoute;
    }
}
