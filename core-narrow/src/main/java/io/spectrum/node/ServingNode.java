package io.spectrum.node;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.node.api.Node;
import io.spectrum.node.api.NodePath;
import io.spectrum.time.Clock;

/**
 * A {@link Node} that serves links: what a process running a node (core-narrow's NarrowNode on a
 * board, core-wide's WideNode on a host) needs beyond the Node API, so the runtime (its node loop,
 * agent, caps probe, link notices) and the client's owner door take either core. Both cores serve
 * FWD through the one shared terminus ({@link FwdServer}). It lives beside NarrowNode rather than in
 * {@code node.api} because it hands out the {@link RemoteClient} (the api package knows no
 * implementation: NodeArchitectureTest).
 */
public interface ServingNode extends Node, FrameHandler {
    /**
     * Handles one FWD request as the node's owner (empty caller context) and copies the reply frame,
     * if any, into {@code reply}. Quantity: the reply length (0 when nothing was answered) or a
     * negated decode error.
     */
    int handleOwnerRequest(byte[] req, int off, int len, byte[] reply, int rOff, int rCap);

    /** The client side of remote subscriptions and requests (reads, writes, slot checks). */
    RemoteClient remote();

    /** Keys the holder tokens the node mints; a process calls it once at start from a strong source. */
    void seedHoldTokens(long k0, long k1);

    /** The clock the node reads (its config's). */
    Clock clock();

    /** True when the vertex exists. */
    boolean exists(NodePath path);

    /** Slots the remote peer (link, peer) holds now (its share in use). */
    int slotsHeldBy(Link link, int peer);

    /** Awaits the remote peer (link, peer) has pending now. */
    int awaitsHeldBy(Link link, int peer);

    /** Requests refused because a peer was over its slot share, since start. */
    long slotShareRefusals();

    /** Requests refused because a peer was over its await share, since start. */
    long awaitShareRefusals();

    /** Delivery frames not sent because their peer was over its outbound rate, since start. */
    long deliveriesDropped();

    /**
     * The vertices a remote peer may write, for an operator's warning ("none" when there are none),
     * plus a note when undeclared vertices are writable too. Not for a hot path.
     */
    String remotelyWritable();

    /** FWD frames forwarded under a mount since start (the router, issue 10 item 1). */
    long forwarded();

    /** FWD frames the router refused (answered with a typed ERROR, or dropped) since start. */
    long routeRefusals();

    /** Of the router's refusals, those with no route (sender without an inbound run, egress gone). */
    long noRoute();
}
