package io.spectrum.bus.server;

import io.spectrum.link.Link;
import io.spectrum.time.SystemClock;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.bus.protocol.BusStats;
import io.spectrum.wide.Grants;
import io.spectrum.bus.state.HostBus;
import io.spectrum.bus.store.FileArtifactStore;
import io.spectrum.bus.store.SealJob;
import io.spectrum.bus.store.StoreConfig;
import io.spectrum.link.local.InProcessLink;
import io.spectrum.time.Clock;

/**
 * A running host bus: the artifact store opened on its directory, the {@link HostBus}, the
 * {@link BusServer} on the given links plus an {@link InProcessLink}, and the bus's turns run
 * either by a {@link BusDriver}'s loop (a host's node loop, which wakes on the bus's input) or on the
 * bus's own thread (agrona's {@link AgentRunner}; idle waiting backs off from spinning to parking at
 * most 100 µs; the system property {@code spectrum.bus.maxParkNanos} changes that bound, 0 yields
 * instead of parking). Everything that touches the bus runs on that one thread; other threads reach
 * it through {@link #onBusThread}. The one exception is a seal's bulk copy and hash
 * ({@link SealJob}), which runs on the host's sealing executor (daemon threads
 * {@code spectrum-bus-seal-N}) while the bus thread serves the other connections; see
 * {@link BusServer}; the store's unlinks of large files it no longer uses run there too.
 * {@link #close()} shuts the bus down (every client is told), stops the sealing executor and waits
 * for its work, and closes the store (its files of this run are removed, the copies of seals still
 * in progress included).
 */
public final class BusHost implements AutoCloseable {
    static final int SEAL_THREADS = 2;
    /** How long close waits for running seal jobs (a cancelled job stops within a 1 MiB chunk). */
    private static final long SEAL_STOP_SECONDS = 10;
    private final FileArtifactStore store;
    private final HostBus bus;
    private final BusServer server;
    private final InProcessLink inProcess;
    private final List<Link> links;
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    /** The bus's own thread, or null when a {@link BusDriver} runs its turns. */
    private final AgentRunner runner;
    private final ExecutorService sealer;
    /** The loop that runs the turns instead of {@link #runner}, or null. */
    private final BusDriver driver;
    /** One turn on the driver's loop: tasks, then the server's work. */
    private final java.util.function.IntSupplier turn = this::turn;
    /** Set on the driver's thread once the bus has shut down: later turns do nothing. */
    private boolean stopped;

    private BusHost(FileArtifactStore store, HostBus bus, Function<String, Grants> grants, List<Link> links,
            ExecutorService sealer, InProcessLink nodeDoor, BusDriver driver) {
        this.store = store;
        this.bus = bus;
        this.links = links;
        this.sealer = sealer;
        inProcess = BusServer.inProcessLink(0x7FFF_0000, InProcessLink.MAX_ENDS, bus.limits());
        server = new BusServer(bus, store, grants, sealer);
        server.nodeDoor(nodeDoor);
        server.attach(inProcess);
        for (Link l : links) {
            server.attach(l);
        }
        this.driver = driver;
        if (driver != null) {
            runner = null;
            boolean wakes = server.wakes(driver.readiness());
            driver.share(turn, !wakes);
            return;
        }
        runner = new AgentRunner(idleStrategy(), BusHost::agentError, null,
                new Agent() {
                    @Override
                    public int doWork() {
                        int n = 0;
                        for (Runnable t; (t = tasks.poll()) != null; ) {
                            t.run();
                            n++;
                        }
                        return n + server.doWork();
                    }

                    @Override
                    public void onClose() {
                        server.shutdown();
                        server.doWork();
                    }

                    @Override
                    public String roleName() {
                        return "spectrum-bus";
                    }
                });
        AgentRunner.startOnThread(runner);
    }

    /** One duty cycle on the driver's loop: the tasks handed to the bus, then the server's work. */
    private int turn() {
        if (stopped) {
            return 0;
        }
        int n = 0;
        for (Runnable t; (t = tasks.poll()) != null; ) {
            t.run();
            n++;
        }
        try {
            return n + server.doWork();
        } catch (RuntimeException e) {
            agentError(e); // the loop is the host's: the bus's error must not stop the node
            return n;
        }
    }

    /** The longest idle park, {@code spectrum.bus.maxParkNanos} (default 100 µs; 0: yield, never park). */
    static IdleStrategy idleStrategy() {
        long maxPark = Long.getLong("spectrum.bus.maxParkNanos", 100_000L);
        return maxPark <= 0 ? new YieldingIdleStrategy()
                : new BackoffIdleStrategy(100, 10, Math.min(1_000L, maxPark), maxPark);
    }

    /**
     * Opens the store ({@code store}'s root) and starts the bus on {@code links}.
     *
     * @param grants what each client id may do (null: an anonymous connection)
     * @throws BusException STORE_FAILURE when the store cannot be opened (e.g. another bus holds it)
     */
    public static BusHost start(StoreConfig store, BusLimits limits, Function<String, Grants> grants, List<Link> links)
            throws BusException {
        return start(store, limits, grants, links, (InProcessLink) null);
    }

    /**
     * As {@link #start(StoreConfig, BusLimits, Function, List)}, the bus connections also a door to
     * the host's node: {@code nodeDoor} (null: none) is the in-process link whose other side the
     * node serves on its own thread ({@link BusServer#nodeDoorLink}, {@link BusServer#nodeDoor}). The
     * bus holds and closes the ends it opens; the link itself is the node's to close.
     */
    public static BusHost start(StoreConfig store, BusLimits limits, Function<String, Grants> grants, List<Link> links,
            InProcessLink nodeDoor) throws BusException {
        return start(store, limits, grants, links, sealingExecutor(), nodeDoor);
    }

    /** As {@link #start(StoreConfig, BusLimits, Function, List)} with the given sealing executor (tests); close shuts it down. */
    static BusHost start(StoreConfig store, BusLimits limits, Function<String, Grants> grants, List<Link> links,
            ExecutorService sealer) throws BusException {
        return start(store, limits, grants, links, sealer, null);
    }

    /**
     * As {@link #start(StoreConfig, BusLimits, Function, List, InProcessLink)}, but the bus's turns run
     * on {@code driver}'s loop (the host's node thread) instead of a thread of their own, and its
     * timers read {@code clock}. Nothing touches the bus but that loop's thread; other threads reach it
     * through {@link #onBusThread}.
     */
    public static BusHost start(StoreConfig store, BusLimits limits, Function<String, Grants> grants, List<Link> links,
            InProcessLink nodeDoor, BusDriver driver, Clock clock) throws BusException {
        return start(store, limits, grants, links, sealingExecutor(), nodeDoor, driver, clock);
    }

    private static BusHost start(StoreConfig store, BusLimits limits, Function<String, Grants> grants, List<Link> links,
            ExecutorService sealer, InProcessLink nodeDoor) throws BusException {
        return start(store, limits, grants, links, sealer, nodeDoor, null, SystemClock.INSTANCE);
    }

    private static BusHost start(StoreConfig store, BusLimits limits, Function<String, Grants> grants, List<Link> links,
            ExecutorService sealer, InProcessLink nodeDoor, BusDriver driver, Clock clock) throws BusException {
        FileArtifactStore s;
        try {
            s = FileArtifactStore.open(store);
        } catch (BusException | RuntimeException e) {
            sealer.shutdownNow();
            throw e;
        }
        s.unlinkOn(sealer);
        return new BusHost(s, new HostBus(s, clock, limits, driver == null ? null : driver.node()), grants, new ArrayList<>(links), sealer, nodeDoor, driver);
    }

    /** Two daemon threads, {@code spectrum-bus-seal-N}, made when the first seals come. */
    static ExecutorService sealingExecutor() {
        AtomicInteger n = new AtomicInteger();
        ThreadFactory f = r -> {
            Thread t = new Thread(r, "spectrum-bus-seal-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        return Executors.newFixedThreadPool(SEAL_THREADS, f);
    }

    /** An error escaping the bus's agent: one line for the operator (the agent goes on with its next turn). */
    private static void agentError(Throwable e) {
        System.err.println("spectrum bus: internal error, the bus goes on: " + e);
    }

    /** A client end of the in-process transport, known to the bus as {@code name} (null: anonymous). */
    public InProcessLink.End connectInProcess(String name) {
        return inProcess.connect(name);
    }

    /** The store's directory (clients map artifacts under it). */
    public Path storeRoot() {
        return store.root();
    }

    /** Runs {@code f} on the bus's thread and returns its result (waits at most 5 s). */
    public <T> T onBusThread(Function<HostBus, T> f) {
        if (driver != null && driver.onLoopThread()) {
            return f.apply(bus);
        }
        CompletableFuture<T> out = new CompletableFuture<>();
        tasks.add(() -> {
            try {
                out.complete(f.apply(bus));
            } catch (RuntimeException e) {
                out.completeExceptionally(e);
            }
        });
        if (driver != null) {
            driver.readiness().wake();
        }
        try {
            return out.get(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for the bus thread", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the bus thread did not answer: " + e, e);
        }
    }

    /**
     * The node door's counters ({@link BusServer#framesRelayed()}, {@link BusServer#relaysRefused()},
     * {@link BusServer#framesFromNode()}), all 0 without a door.
     *
     * @param relayed frames passed to the node
     * @param refused frames for the node the door refused
     * @param fromNode frames from the node passed back on bus connections
     */
    public record DoorCounters(long relayed, long refused, long fromNode) {
    }

    /** The node door's counters, read on the bus's thread. */
    public DoorCounters doorCounters() {
        return onBusThread(b -> new DoorCounters(server.framesRelayed(), server.relaysRefused(), server.framesFromNode()));
    }

    /** The bus's counters, read on its thread. */
    public BusStats stats() {
        return onBusThread(HostBus::stats);
    }

    /** Stops the bus (clients get their closing notices), closes its links and the store. */
    @Override
    public void close() {
        if (runner != null) {
            runner.close();
        } else {
            try { // the shutdown runs where the bus runs: on the driver's loop
                onBusThread(b -> {
                    server.shutdown();
                    server.doWork();
                    stopped = true;
                    return null;
                });
            } catch (IllegalStateException e) {
                System.err.println("spectrum bus: the loop that runs the bus did not stop it: " + e.getMessage());
            }
            driver.unshare(turn);
        }
        // the bus's shutdown abandoned every writer, which cancels their jobs; what never started
        // (cancelled jobs, unlinks) runs here, then wait for those running
        for (Runnable r : sealer.shutdownNow()) {
            r.run();
        }
        try {
            if (!sealer.awaitTermination(SEAL_STOP_SECONDS, TimeUnit.SECONDS)) {
                System.err.println("spectrum bus: a seal job did not stop in " + SEAL_STOP_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Link l : links) {
            l.close();
        }
        inProcess.close();
        store.close();
    }
}
