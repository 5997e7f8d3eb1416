package io.spectrum.node;

import io.spectrum.testing.MemoryLink;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.time.ManualClock;
import java.util.ArrayList;
import java.util.List;

/** A node with one fake link attached, plus request helpers. */
class NodeHarness {
    static final int PEER = 7;
    static final int OTHER_PEER = 8;
    final ManualClock clock = new ManualClock(0);
    /**
     * The core the harness builds: NarrowNode here; core-wide's tests run the same remote-facing
     * tests against WideNode by setting it (once, in their class's static initializer, in their own
     * test JVM).
     */
    static volatile java.util.function.Function<NodeConfig, ServingNode> core = NarrowNode::new;
    final NodeConfig config;
    ServingNode node;
    final MemoryLink link = new MemoryLink(3);
    final NodePath temp = NodePath.of("/sensor/temp");

    NodeHarness() {
        this(null);
    }

    NodeHarness(java.util.function.Consumer<NodeConfig.Builder> tweak) {
        // the terminus and topic tests write undeclared vertices remotely; DeclarationTest covers the gate
        NodeConfig.Builder b = NodeConfig.builder().clock(clock).remoteWritesToUndeclared(true);
        if (tweak != null) {
            tweak.accept(b);
        }
        config = b.build();
        node = core.apply(config);
        node.attach(link);
    }

    /**
     * Makes {@code peer} a Spectrum peer: it sends a READ of {@code /$node/caps} carrying the
     * extensions announcement, so the node answers it with the extended forms from then on.
     */
    void announce(int peer) {
        exchange(peer, Frames.announced(Frames.fwd(0, NarrowNode.CAPS.tlv(), null, Frames.REPLY_EP)));
    }

    /** The node as a NarrowNode, for what only the NARROW core has (retire, the last publisher's link). */
    NarrowNode narrow() {
        return (NarrowNode) node;
    }

    /** Sends one request from {@code peer} and returns every frame the node sent in answer. */
    List<byte[]> exchange(int peer, byte[] request) {
        int before = link.sentCount();
        link.inject(peer, request);
        node.poll();
        List<byte[]> out = new ArrayList<>();
        for (int i = before; i < link.sentCount(); i++) {
            out.add(link.sentAt(i));
        }
        return out;
    }

    /** The single reply to a request (fails if the node sent anything else). */
    Frames.Reply request(int peer, byte[] req) {
        List<byte[]> out = exchange(peer, req);
        if (out.size() != 1) {
            throw new AssertionError("expected one frame, got " + out.size());
        }
        return Frames.parse(out.get(0));
    }

    Frames.Reply request(byte[] req) {
        return request(PEER, req);
    }

    /** Owner request (empty caller context). */
    Frames.Reply owner(byte[] req) {
        byte[] reply = new byte[4096];
        int n = node.handleOwnerRequest(req, 0, req.length, reply, 0, reply.length);
        if (n <= 0) {
            throw new AssertionError("owner request answered nothing: " + n);
        }
        return Frames.parse(java.util.Arrays.copyOf(reply, n));
    }

    byte[] subscribeReq(String target, int policy, boolean withPolicy, boolean stamp, byte[] src) {
        return Frames.fwd(1, temp.tlv(), Frames.subsField(-1, 1, -1), src, Frames.subscriber(target, policy, withPolicy, stamp));
    }

    byte[] slotWrite(int n, long gen, byte[] payload, byte[] src) {
        return Frames.fwd(1, temp.tlv(), Frames.subsField(n, 1, gen), src, payload);
    }

    byte[] slotRead(int n, long gen) {
        return Frames.fwd(0, temp.tlv(), Frames.subsField(n, 1, gen), Frames.REPLY_EP);
    }

    byte[] listRead() {
        return listReadOf(temp);
    }

    byte[] listReadOf(NodePath p) {
        return Frames.fwd(0, p.tlv(), Frames.subsField(-1, 1, -1), Frames.REPLY_EP);
    }
}
