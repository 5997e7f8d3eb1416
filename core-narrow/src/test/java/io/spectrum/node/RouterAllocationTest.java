package io.spectrum.node;

import io.spectrum.testing.MemoryLink;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.testing.SteadyStateAllocation;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.WireError;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The forward hop allocates nothing: a router node forwards requests from two listener peers to a
 * mounted board link, the board's replies and deliveries back, and refuses a stale peer route,
 * 1,000,000 hops per window, measured with the thread's allocated-bytes counter after warm-up
 * (the {@link SteadyStateAllocation} rule). The links are {@link MemoryLink}s over fixed buffers, so
 * every byte counted is the node's. Tagged "alloc" (Surefire reruns it with -XX:-DoEscapeAnalysis).
 */
@Tag("alloc")
class RouterAllocationTest {
    private static final int HOPS_PER_ROUND = 8;

    @Test
    void forwardingAMillionFramesAllocatesNothing() {
        NarrowNode node = new NarrowNode(NodeConfig.builder().clock(new ManualClock(0)).build());
        MemoryLink clients = new MemoryLink(1);
        MemoryLink board = new MemoryLink(2);
        clients.record(false);
        board.record(false);
        node.attach(clients);
        node.attach(board);
        assertEquals(WireError.OK, node.mountListener("clients", clients));
        assertEquals(WireError.OK, node.mount("board1", board, 0));
        byte[] ep = NodePath.of("/reply-ep").tlv();
        byte[] read = Frames.fwd(FwdView.OP_READ, NodePath.of("/board1/sensor/temp").tlv(), null, ep);
        byte[] write = Frames.fwd(FwdView.OP_WRITE, NodePath.of("/board1/sensor/temp").tlv(), null, ep, Frames.value(5, 2));
        byte[] subscribe = Frames.fwd(FwdView.OP_WRITE, NodePath.of("/board1/sensor/temp").tlv(), Frames.subsField(-1, 1, -1),
                ep, Frames.subscriber("/reply-ep", 0, false, false));
        // first frames give peers 4 and 5 their routes: /clients/4-1 and /clients/5-2
        clients.inject(4, read);
        clients.inject(5, read);
        node.poll();
        byte[] reply4 = Frames.fwd(FwdView.OP_REPLY, NodePath.of("/clients/4-1/reply-ep").tlv(), null,
                NodePath.of("/sensor/temp").tlv(), Frames.value(0, 1), Frames.value(2176, 2));
        byte[] delivery5 = Frames.fwd(FwdView.OP_WRITE, NodePath.of("/clients/5-2/reply-ep").tlv(), null,
                Frames.EMPTY_PATH, Frames.value(2176, 2));
        byte[] stale = Frames.fwd(FwdView.OP_READ, NodePath.of("/clients/4-9/x").tlv(), null, ep);
        long forwardedBefore = node.forwarded();
        Runnable round = () -> {
            clients.inject(4, read);
            clients.inject(5, write);
            clients.inject(4, subscribe);
            board.inject(0, reply4);
            board.inject(0, delivery5);
            board.inject(0, reply4);
            clients.inject(5, read);
            clients.inject(4, stale); // refused: path::invalid answered to peer 4
            node.poll();
        };
        long rounds = 1_000_000 / HOPS_PER_ROUND + 1;
        for (long i = 0; i < rounds / 2; i++) {
            round.run(); // warm-up
        }
        long[] windows = new long[3];
        for (int m = 0; m < windows.length; m++) {
            long before = SteadyStateAllocation.allocatedBytes();
            for (long i = 0; i < rounds; i++) {
                round.run();
            }
            windows[m] = SteadyStateAllocation.allocatedBytes() - before;
        }
        long perWindow = rounds * HOPS_PER_ROUND;
        // the work really happened: 7 forwarded and 1 refused per round
        assertEquals(forwardedBefore + (rounds / 2 + 3 * rounds) * 7, node.forwarded());
        assertEquals(rounds / 2 + 3 * rounds, node.routeRefused());
        assertEquals(node.forwarded() + node.routeRefused() - forwardedBefore, board.sendCalls() + clients.sendCalls() - 2,
                "every hop sent exactly one frame (2 first reads before)");
        SteadyStateAllocation.assertNone("router forward hops", perWindow, windows);
    }
}
