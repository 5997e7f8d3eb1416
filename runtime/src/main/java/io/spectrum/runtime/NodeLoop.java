package io.spectrum.runtime;

import io.spectrum.link.Link;
import io.spectrum.node.ServingNode;
import io.spectrum.time.Clock;
import io.spectrum.time.SystemClock;
import org.agrona.concurrent.AgentRunner;

import java.util.List;

/**
 * Drives one node (either core, {@link ServingNode}) on its own thread: a {@link NodeAgent} run by an agrona {@link AgentRunner}
 * with the {@link WakeIdleStrategy} (spin briefly after work, then block until input, a task or the
 * next deadline). The node is single-threaded, so everything that touches it goes through this
 * thread ({@link #submit}). An exception from a duty cycle is printed and the loop keeps serving.
 * {@link #close()} stops the thread, then closes the links and the node (idempotent).
 */
public final class NodeLoop implements AutoCloseable {
    /**
     * Default spin-then-yield window after work before the loop blocks: the system property
     * {@code spectrum.loop.spinMicros}, else 0 (block at once). Measured on a shared 2-core machine,
     * spinning took the CPU the peer needed: one request at a time, p99/p50 was 2.1 with no spin
     * and 4 to 8.5 with 5 to 50 µs of spin (bench UdpRequestRounds); give it a window on a
     * machine with a core to spare.
     */
    public static final long SPIN_NANOS = Long.getLong("spectrum.loop.spinMicros", 0L) * 1_000L;

    private final NodeAgent agent;
    private final AgentRunner runner;
    private volatile Thread thread;
    private volatile boolean closed;

    /** A loop on the system clock with the default housekeeping period and spin window. */
    public NodeLoop(String name, ServingNode node, NodeAgent.Step step) {
        this(name, node, step, SystemClock.INSTANCE, NodeAgent.HOUSEKEEPING_NANOS, SPIN_NANOS);
    }

    /**
     * A loop named {@code name} (its thread's name) driving {@code node}: {@code step} runs every duty cycle,
     * housekeeping every {@code housekeepingNanos} of {@code clock}, and the loop spins {@code spinNanos} after work
     * before it blocks. Nothing runs until {@link #start()}.
     */
    public NodeLoop(String name, ServingNode node, NodeAgent.Step step, Clock clock, long housekeepingNanos,
                    long spinNanos) {
        this.agent = new NodeAgent(name, node, clock, step, housekeepingNanos);
        this.runner = new AgentRunner(new WakeIdleStrategy(agent, spinNanos),
                e -> System.err.println("spectrum " + agent.roleName() + ": " + e), null, agent);
    }

    /** Attaches a link (before {@link #start()}, or from a task on the node thread). */
    public void attach(Link link) {
        agent.attach(link);
    }

    /** The agent whose duty cycle this loop runs (for a caller that drives it on its own thread instead). */
    public NodeAgent agent() {
        return agent;
    }

    /** The node; touch it only on the node thread ({@link #submit}). */
    public ServingNode node() {
        return agent.node();
    }

    /** The liveness probe of the node's links. */
    public CapsProbe probe() {
        return agent.probe();
    }

    /** The attached links. */
    public List<Link> links() {
        return agent.links();
    }

    /** Starts the loop's daemon thread; call once. */
    public void start() {
        thread = AgentRunner.startOnThread(runner, r -> {
            Thread t = new Thread(r, agent.roleName());
            t.setDaemon(true);
            return t;
        });
    }

    /** True on the loop's own thread. */
    public boolean isNodeThread() {
        return Thread.currentThread() == thread;
    }

    /** True between {@link #start()} and {@link #close()}. */
    public boolean isRunning() {
        return thread != null && !closed;
    }

    /** Runs {@code task} on the node thread (wakes the loop). */
    public void submit(Runnable task) {
        agent.submit(task);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (thread != null && thread != Thread.currentThread()) {
            agent.stopWaiting();
            runner.close();
        } else if (thread == null) {
            agent.onClose();
        }
        for (Link l : agent.links()) {
            l.close();
        }
        agent.node().close();
    }
}
