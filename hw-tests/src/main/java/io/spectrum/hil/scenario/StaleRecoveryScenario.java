package io.spectrum.hil.scenario;

import io.spectrum.hil.Check;
import io.spectrum.hil.HilContext;
import io.spectrum.hil.HilSkip;
import io.spectrum.hil.Scenario;
import io.spectrum.client.PeerClient;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.fwd.RemoteClient;
import io.spectrum.node.api.NodePath;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * A host node mirrors the board's counter through a remote subscription. A board reset marks the
 * mirror stale; when the board is back the subscription is re-sent by the node itself and the next
 * publish clears the stale mark.
 */
public final class StaleRecoveryScenario implements Scenario {
    static final String MIRROR = "/mirror/counter";

    @Override
    public String name() {
        return "stale-on-reset-and-recovery";
    }

    @Override
    public String checks() {
        return "a host node subscribed to " + DemoBoard.COUNTER + " (subscribeRemote) receives it as writes on a local "
                + "mirror; a board reset makes the link report the board gone and the mirror stale while keeping "
                + "its value; when the board answers again the node re-sends the subscription by itself (nobody "
                + "re-subscribes by hand) and the next publish clears the stale mark";
    }

    @Override
    public void run(HilContext ctx) throws Exception {
        if (!ctx.target().canReset()) {
            throw new HilSkip("target has no reset line");
        }
        PeerClient c = ctx.client();
        NarrowNode node = ctx.hostNode();
        NodePath mirror = NodePath.of(MIRROR);
        int h = node.subscribeRemote(ctx.target().link(), ctx.target().peer(), NodePath.of(DemoBoard.COUNTER),
                mirror, 0);
        Check.that(h >= 0, "subscribeRemote refused: " + h);
        RemoteClient remote = node.remote();
        Duration wait = ctx.timeout().multipliedBy(2);
        try {
            waitFor(c, wait, () -> node.sequence(mirror) >= 2,
                    "the mirror did not receive 2 deliveries of " + DemoBoard.COUNTER);
            Check.equal(RemoteClient.ACKED, remote.state(h), "remote subscription state after the board's reply");
            Check.that(!node.isStale(mirror), "a freshly delivered mirror must not be stale");
            int sendsBefore = remote.sends(h);
            byte[] buf = new byte[64];

            long t0 = System.nanoTime();
            ctx.target().reset();
            waitFor(c, wait.plus(ctx.timeout()), () -> node.isStale(mirror),
                    "the mirror did not turn stale after the board reset");
            long staleMs = (System.nanoTime() - t0) / 1_000_000L;
            Check.that(node.read(mirror, buf, 0, buf.length) > 0,
                    "a stale mirror keeps its retained value during the grace period");

            // the board is back once it answers; the answer is also what tells the link it is up again
            Waits.firstAnswer(ctx, DemoBoard.CAPS, ctx.timeout().multipliedBy(6));
            long seqBack = node.sequence(mirror);
            waitFor(c, wait, () -> !node.isStale(mirror) && node.sequence(mirror) > seqBack,
                    "the mirror did not receive a fresh publish after the board came back");
            long backMs = (System.nanoTime() - t0) / 1_000_000L;
            Check.that(remote.sends(h) > sendsBefore,
                    "the node must have re-sent the subscription itself (sends " + sendsBefore + " -> "
                            + remote.sends(h) + ")");
            Check.equal(RemoteClient.ACKED, remote.state(h), "remote subscription state after recovery");
            ctx.note("stale after " + staleMs + " ms, fresh again after " + backMs + " ms, subscription sent "
                    + remote.sends(h) + " times");
        } finally {
            remote.forget(h);
            Subscribers.clearQuietly(c, DemoBoard.COUNTER, MIRROR);
        }
    }

    private static void waitFor(PeerClient c, Duration max, BooleanSupplier cond, String failure) {
        long deadline = System.nanoTime() + max.toNanos();
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw Check.fail(failure + " within " + max.toMillis() + " ms");
            }
            c.pumpFor(Duration.ofMillis(10));
        }
    }
}
