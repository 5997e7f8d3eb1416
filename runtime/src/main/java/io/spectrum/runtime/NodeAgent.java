package io.spectrum.runtime;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.Readiness;
import io.spectrum.node.ServingNode;
import io.spectrum.time.Clock;
import io.spectrum.wire.WireError;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentInvoker;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.IntSupplier;

/**
 * The one node loop, as an agrona {@link Agent}: each duty cycle ({@link #doWork}) polls the links,
 * runs the owner's periodic step when it is due, runs the node's timers and the liveness sweep
 * ({@link CapsProbe}) every housekeeping period, runs submitted tasks, and flushes every link's queued
 * sends ({@code Link.flush}, once per cycle); it returns the work done.
 * Between cycles with no work the idle strategy ({@link WakeIdleStrategy}) blocks in
 * {@link #awaitWork}: in the selector watching the links ({@link SelectorReadiness}) until input
 * arrives, a task is submitted, or the next deadline (step, housekeeping) comes.
 *
 * <p>Run it on its own thread with {@link NodeLoop} (boards, hosts), or on the caller's thread
 * through an agrona {@code AgentInvoker} ({@link #onCallerThread}; the HIL suite, whose client pumps the loop while it waits).
 * The node is single-threaded: only the agent's thread touches it; others {@link #submit} tasks.
 */
public final class NodeAgent implements Agent {
    /** Default period of the node's timers (AWAIT expiry, publisher grace) and the liveness sweep. */
    public static final long HOUSEKEEPING_NANOS = 100_000_000L;
    /** Period of the links' OS counters refresh and the overload warnings check. */
    public static final long STATS_NANOS = 1_000_000_000L;
    /** At most one overload warning line per counter per this period. */
    public static final long WARNING_PERIOD_NANOS = 10_000_000_000L;
    /** How long the loop may block when some link cannot signal its input (it must be polled). */
    public static final long POLL_FALLBACK_NANOS = 1_000_000L;

    /** The owner's periodic work on the node thread (publish demo values, refresh a view...). */
    public interface Step {
        /**
         * Runs the step at clock time {@code nowNanos}.
         *
         * @return the clock time it next wants to run
         */
        long run(long nowNanos);
    }

    private final String name;
    private final ServingNode node;
    private final Clock clock;
    private final Step step;
    private final CapsProbe probe;
    private final SelectorReadiness readiness = new SelectorReadiness();
    private final List<Link> links = new ArrayList<>();
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    /** Other work that shares the node thread ({@link #share}): each runs once per duty cycle. */
    private IntSupplier[] shared = new IntSupplier[0];
    private final long housekeepingNanos;
    private final FrameHandler tapping = this::tapped;
    private FrameHandler tap;
    private boolean pollOnly;
    private long nextStep;
    private long nextHousekeeping;
    private long nextStats;
    private volatile OverloadLog overload;
    private volatile long waits;
    private volatile boolean stopping;

    /**
     * @param name              for the thread and errors
     * @param node              the node it drives; its {@code $node/caps} gets a {@code spectrum.boot} stamp
     * @param clock             the clock deadlines are read from (the node's)
     * @param step              the owner's periodic work, or null
     * @param housekeepingNanos period of the node's timers and the liveness sweep
     */
    public NodeAgent(String name, ServingNode node, Clock clock, Step step, long housekeepingNanos) {
        this.name = name;
        this.node = node;
        this.clock = clock;
        this.step = step;
        this.housekeepingNanos = housekeepingNanos;
        this.probe = new CapsProbe(node, 8, 64);
        CapsProbe.stampBoot(node);
        java.security.SecureRandom random = new java.security.SecureRandom();
        node.seedHoldTokens(random.nextLong(), random.nextLong()); // unguessable holder tokens
        long now = clock.nanoTime();
        this.nextStep = now;
        this.nextHousekeeping = now;
        this.nextStats = now + STATS_NANOS;
        this.overload = new OverloadLog(name, WARNING_PERIOD_NANOS, System.err::println);
    }

    /**
     * Where the rate-limited overload warnings go ({@link OverloadLog}: at most one line per counter
     * per {@link #WARNING_PERIOD_NANOS}); stderr by default, null for none. Call before the loop starts.
     */
    public void setWarnings(java.util.function.Consumer<String> sink) {
        this.overload = sink == null ? null : new OverloadLog(name, WARNING_PERIOD_NANOS, sink);
    }

    /**
     * Attaches a link to the node, wires the liveness probe into it and asks it to wake this loop
     * when input arrives. Call before the loop starts or on the node thread.
     */
    public void attach(Link link) {
        int code = node.attach(link);
        if (code != WireError.OK) {
            throw new IllegalStateException("cannot attach " + link.name() + ": " + WireError.identity(code));
        }
        probe.install(link);
        if (!link.setReadiness(readiness)) {
            pollOnly = true;
        }
        links.add(link);
    }

    /**
     * Hands every received frame to {@code handler} before the node sees it (the HIL client records
     * what the board sends on the link the host node rides). Null removes it.
     */
    public void setFrameTap(FrameHandler handler) {
        this.tap = handler;
    }

    /** The node this agent drives; touch it only on the node thread. */
    public ServingNode node() {
        return node;
    }

    /** The liveness probe installed in every attached link. */
    public CapsProbe probe() {
        return probe;
    }

    /** The attached links, in attach order (node thread). */
    public List<Link> links() {
        return links;
    }

    /**
     * Shares the node thread with {@code turn} (the host's bus): from now on it runs once per duty
     * cycle, after the submitted tasks and before the links are flushed, and returns the work it did
     * (the loop spins while there is work, then blocks). Its input wakes the loop through
     * {@link #readiness()}; with {@code polled} (some of its input cannot wake the loop: a listening
     * socket's new connections, a full socket's writability) the loop never blocks longer than
     * {@link #POLL_FALLBACK_NANOS}, as for a link that cannot signal its input. Call before the loop
     * starts or on the node thread.
     */
    public void share(IntSupplier turn, boolean polled) {
        if (polled) {
            pollOnly = true;
        }
        IntSupplier[] more = java.util.Arrays.copyOf(shared, shared.length + 1);
        more[shared.length] = turn;
        shared = more;
    }

    /** Stops running {@code turn} (the bus closed). Node thread. */
    public void unshare(IntSupplier turn) {
        java.util.List<IntSupplier> rest = new ArrayList<>(java.util.Arrays.asList(shared));
        rest.remove(turn);
        shared = rest.toArray(new IntSupplier[0]);
    }

    /**
     * How anything that shares the node thread wakes it: its links' channels are watched by the loop's
     * selector ({@link Readiness#watch}), and input that comes another way calls {@link Readiness#wake}.
     */
    public Readiness readiness() {
        return readiness;
    }

    /** Runs {@code task} on the node thread at the next duty cycle (wakes the loop). */
    public void submit(Runnable task) {
        tasks.add(task);
        readiness.wake();
    }

    /** The loop is being stopped: never block again (so the runner sees its stop at once). */
    void stopWaiting() {
        stopping = true;
        readiness.wake();
    }

    /** Wakes the loop if it is blocked (from any thread). */
    public void wake() {
        readiness.wake();
    }

    /**
     * Runs this agent on the caller's thread (an agrona {@code AgentInvoker}): each call of the
     * returned supplier is one duty cycle and returns its work; a failure in the cycle is thrown to
     * the caller. For a harness that pumps the loop while it waits (the HIL suite).
     */
    public IntSupplier onCallerThread() {
        AgentInvoker invoker = new AgentInvoker(NodeAgent::rethrow, null, this);
        invoker.start();
        return invoker::invoke;
    }

    private static void rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        throw new IllegalStateException(t);
    }

    @Override
    public int doWork() {
        int work = pollLinks();
        long now = clock.nanoTime();
        if (step != null && now - nextStep >= 0) {
            nextStep = step.run(now);
        }
        if (now - nextHousekeeping >= 0) {
            nextHousekeeping = now + housekeepingNanos;
            node.tick();
            probe.sweep();
        }
        if (now - nextStats >= 0) {
            nextStats = now + STATS_NANOS;
            for (int i = 0; i < links.size(); i++) {
                links.get(i).refreshCounters(); // OS-side counters (UDP receive-buffer drops)
            }
            OverloadLog log = overload;
            if (log != null) {
                log.check(links, node, node.resources(), now);
            }
        }
        for (Runnable t; (t = tasks.poll()) != null; ) {
            t.run();
            work++;
        }
        final IntSupplier[] others = shared;
        for (int i = 0; i < others.length; i++) {
            work += others[i].getAsInt();
        }
        // the step's sends leave now, one system call per link where the link batches them
        for (int i = 0; i < links.size(); i++) {
            links.get(i).flush();
        }
        return work;
    }

    private int pollLinks() {
        if (tap == null) {
            return node.poll();
        }
        int n = 0;
        for (int i = 0; i < links.size(); i++) {
            n += links.get(i).poll(tapping, 64);
        }
        return n;
    }

    private void tapped(Link link, int peer, byte[] buf, int off, int len) {
        FrameHandler t = tap;
        if (t != null) {
            t.onFrame(link, peer, buf, off, len);
        }
        node.onFrame(link, peer, buf, off, len);
    }

    /** The next clock time this agent must run even without input. */
    long nextDeadline() {
        long d = nextHousekeeping;
        if (step != null && nextStep - d < 0) {
            d = nextStep;
        }
        return d;
    }

    /**
     * Blocks until a link has input, a task is submitted or {@link #wake} is called, or the next
     * deadline comes (at most {@link #POLL_FALLBACK_NANOS} when a link cannot signal its input).
     */
    void awaitWork() {
        if (stopping || !tasks.isEmpty()) {
            return;
        }
        long timeout = nextDeadline() - clock.nanoTime();
        if (pollOnly && timeout > POLL_FALLBACK_NANOS) {
            timeout = POLL_FALLBACK_NANOS;
        }
        waits++; // single writer: the agent's thread
        readiness.await(timeout);
    }

    /** Times the loop went to wait for work (read from any thread; for tests and operators). */
    public long waits() {
        return waits;
    }

    /** Closes the selector; the links and the node are closed by their owner ({@link NodeLoop#close}). */
    @Override
    public void onClose() {
        readiness.close();
    }

    @Override
    public String roleName() {
        return "node " + name;
    }
}
