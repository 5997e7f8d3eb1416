package io.spectrum.wide;

import io.spectrum.node.fwd.FwdServer;
import io.spectrum.stats.ResourceCounter;
import io.spectrum.time.Clock;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * The identified callers of a {@link WideNode}: the owner, the in-process connections
 * ({@link #connect(String)}, named or anonymous) and the remote callers (link index, peer) that
 * published or hold edges, each a {@link WidePeer}, counted together in {@code wide.peers}. A remote
 * caller becomes a peer on its first write or edge and stays one until its link says it went; a
 * peer made for a request that was refused is forgotten again.
 */
final class PeerTable {
    /** The peers counter (no ceiling: a peer is as many as the links and connections that exist). */
    final ResourceCounter peers = new ResourceCounter("wide.peers", Integer.MAX_VALUE);
    /** The owner's peer: the identity the node's own writes publish under. */
    final WidePeer owner;
    private final WideNode node;
    private final FwdServer server;
    private final AnonymousIds anonymousIds;
    /** The remote callers (link index, peer) that published or hold edges, as peers of this node. */
    private final Long2ObjectHashMap<WidePeer> linkPeers = new Long2ObjectHashMap<>();
    private int inProcessPeers;

    PeerTable(WideNode node, FwdServer server, Clock clock) {
        this.node = node;
        this.server = server;
        owner = new WidePeer(node, WideNode.OWNER_IDENTITY, false, FwdServer.OWNER, 0);
        anonymousIds = new AnonymousIds(clock);
    }

    /** The in-process connection {@link WideNode#connect(String)} makes (its rules are stated there). */
    WidePeer connect(String name) {
        WidePeer p;
        if (name == null || name.isEmpty()) {
            p = new WidePeer(node, anonymousIds.next(), true, WidePeer.IN_PROCESS, ++inProcessPeers);
        } else {
            if (!AnonymousIds.nameAllowed(name)) {
                throw new IllegalArgumentException("a peer name may not start with $ or " + AnonymousIds.PREFIX + ": " + name);
            }
            p = new WidePeer(node, name, false, WidePeer.IN_PROCESS, ++inProcessPeers);
        }
        peers.taken();
        return p;
    }

    private static long peerKey(int li, int peer) {
        return ((long) li << 32) | (peer & 0xFFFFFFFFL);
    }

    /** The peer of this node that remote caller (link index, peer) is, made on first use; the owner for OWNER. */
    WidePeer linkPeer(int li, int peer) {
        if (li == FwdServer.OWNER) {
            return owner;
        }
        final long k = peerKey(li, peer);
        WidePeer p = linkPeers.get(k);
        if (p == null) {
            // the name the link gives the peer (a hello, a certificate, a bus connection's id, anonymous
            // ones included), else its link and handle
            final String given = server.peerName(li, peer);
            p = given != null ? new WidePeer(node, given, !AnonymousIds.nameAllowed(given), li, peer)
                    : new WidePeer(node, "link" + server.linkId(li) + "/" + peer, false, li, peer);
            linkPeers.put(k, p);
            peers.taken();
        }
        return p;
    }

    /** The peer remote caller (link index, peer) is, or null when it never published nor held an edge. */
    WidePeer find(int li, int peer) {
        return linkPeers.get(peerKey(li, peer));
    }

    /** Takes remote caller (link index, peer) out of the table (its link said it went): its peer, or null. */
    WidePeer remove(int li, int peer) {
        return linkPeers.remove(peerKey(li, peer));
    }

    /** True when remote caller (link index, peer) is a peer of this node already (the owner always is). */
    boolean knowsLinkPeer(int li, int peer) {
        return li == FwdServer.OWNER || linkPeers.containsKey(peerKey(li, peer));
    }

    /** Drops the peer {@link #linkPeer} just made for a request that was refused (it holds and published nothing). */
    void forgetLinkPeer(int li, int peer) {
        WidePeer p = linkPeers.get(peerKey(li, peer));
        if (p != null && p.edges.isEmpty() && p.published.isEmpty() && p.created == 0) {
            linkPeers.remove(peerKey(li, peer));
            peers.returned();
        }
    }

    /** A connection went ({@link WideNode#disconnect}): its place in the peers counter comes back. */
    void disconnected() {
        peers.returned();
    }

    /**
     * Remote caller (link index, peer) announced its name ({@code spectrum.name}, docs/extensions.md
     * "Peer name"): from now on it is the {@link WidePeer} of that name, so a client that comes back
     * from a new address and publishes is the same last publisher (its values' stale marks clear
     * within the grace). Remembered per (link, peer) until the peer goes down; its edges are still
     * reaped per (link, peer). A name a connection may not take ({@code $…}, {@code anon-…}) is
     * ignored: the caller stays {@code link<id>/<peer>}. Allocates only when the name changes.
     */
    void namePeer(int li, int peer, byte[] b, int off, int len) {
        if (li == FwdServer.OWNER || !AnonymousIds.nameAllowed(b, off, len) || server.peerName(li, peer) != null) {
            return; // a name the link gives wins over an announced one, as the grants take it
        }
        linkPeer(li, peer).name(b, off, len);
    }
}
