package io.spectrum.node;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.node.api.Node;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.fwd.FwdServer;
import io.spectrum.node.fwd.RemoteClient;
import io.spectrum.time.Clock;

/**
 * A {@link Node} that serves links: what a process running a node (core-narrow's NarrowNode on a
 * board, core-wide's WideNode on a host) needs beyond the Node API, so the runtime (its node loop,
 * agent, caps probe, link notices) and the client's owner door take either core. Both cores serve
 * FWD through the one shared {@link FwdServer}; everything here that is the FWD side's is answered by
 * it, once, in these default methods. It lives beside NarrowNode rather than in {@code node.api}
 * because it hands out the {@link RemoteClient} and the {@link FwdServer} (the api package knows no
 * implementation: NodeArchitectureTest).
 */
public interface ServingNode extends Node, FrameHandler {
    /** The shared FWD side this node serves its links with. */
    FwdServer server();

    /** The clock the node reads (its config's). */
    Clock clock();

    /** True when the vertex exists. */
    boolean exists(NodePath path);

    /**
     * Handles one FWD request as the node's owner (empty caller context) and copies the reply frame,
     * if any, into {@code reply}. Quantity: the reply length (0 when nothing was answered) or a
     * negated decode error.
     */
    default int handleOwnerRequest(byte[] req, int off, int len, byte[] reply, int rOff, int rCap) {
        return server().handleOwnerRequest(req, off, len, reply, rOff, rCap);
    }

    /** The client side of remote subscriptions and requests (reads, writes, slot checks). */
    default RemoteClient remote() {
        return server().remote();
    }

    /**
     * Keys the holder tokens the node mints (docs/security.md, "Holders and spoofing") with 128 bits
     * from a strong source; a process running the node calls it once at start (the runtime's node
     * agent does, from {@code SecureRandom}).
     */
    default void seedHoldTokens(long k0, long k1) {
        server().seedHoldTokens(k0, k1);
    }

    /** Slots the remote peer (link, peer) holds now (its share in use). */
    default int slotsHeldBy(Link link, int peer) {
        return server().slotsHeldBy(server().linkIndex(link), peer);
    }

    /** Awaits the remote peer (link, peer) has pending now. */
    default int awaitsHeldBy(Link link, int peer) {
        return server().awaitsHeldBy(server().linkIndex(link), peer);
    }

    /** Requests refused because a peer was over its slot share, since start. */
    default long slotShareRefused() {
        return server().slotShareRefused();
    }

    /** Requests refused because a peer was over its await share, since start. */
    default long awaitShareRefused() {
        return server().awaitShareRefused();
    }

    /** Delivery frames not sent because their peer was over its outbound rate, since start. */
    default long deliveriesDropped() {
        return server().deliveriesDropped();
    }

    /**
     * The vertices a remote peer may write, for an operator's warning ("none" when there are none),
     * plus a note when undeclared vertices are writable too. Not for a hot path.
     */
    default String remotelyWritable() {
        return server().remotelyWritable();
    }

    @Override
    default int mount(String name, Link link, int peer) {
        return server().mount(name, link, peer);
    }

    @Override
    default int mountListener(String name, Link link) {
        return server().mountListener(name, link);
    }

    @Override
    default int listMountHere(String name) {
        return server().listMountHere(name);
    }

    @Override
    default int unmount(String name) {
        return server().unmount(name);
    }

    /** FWD frames forwarded under a mount since start (the router, docs/routing.md). */
    default long forwarded() {
        return server().forwarded();
    }

    /** FWD frames the router refused (answered with a typed ERROR, or dropped) since start. */
    default long routeRefused() {
        return server().routeRefused();
    }

    /** Of the router's refusals, those with no route (sender without an inbound run, egress gone). */
    default long noRoute() {
        return server().noRoute();
    }
}
