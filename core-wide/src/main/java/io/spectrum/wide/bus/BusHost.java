package io.spectrum.wide.bus;

import io.spectrum.link.Link;
import io.spectrum.time.SystemClock;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

/**
 * A running host bus: the artifact store opened on its directory, the {@link HostBus}, the
 * {@link BusServer} on the given links plus an {@link InProcessLink}, and the bus's agent on its
 * own thread (agrona's {@link AgentRunner}; idle waiting backs off from spinning to parking at
 * most 100 µs; the system property {@code spectrum.bus.maxParkNanos} changes that bound, 0 yields
 * instead of parking). Everything that touches the bus runs on that thread; other threads reach it
 * through {@link #onBusThread}. {@link #close()} shuts the bus down (every client is told) and
 * closes the store (its files of this run are removed).
 */
public final class BusHost implements AutoCloseable {
    private final FileArtifactStore store;
    private final HostBus bus;
    private final BusServer server;
    private final InProcessLink inProcess = new InProcessLink(0x7FFF_0000);
    private final List<Link> links;
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final AgentRunner runner;

    private BusHost(FileArtifactStore store, HostBus bus, Function<String, Grants> grants, List<Link> links) {
        this.store = store;
        this.bus = bus;
        this.links = links;
        server = new BusServer(bus, store, grants);
        server.attach(inProcess);
        for (Link l : links) {
            server.attach(l);
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
        FileArtifactStore s = FileArtifactStore.open(store);
        return new BusHost(s, new HostBus(s, SystemClock.INSTANCE, limits), grants, new ArrayList<>(links));
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
        CompletableFuture<T> out = new CompletableFuture<>();
        tasks.add(() -> {
            try {
                out.complete(f.apply(bus));
            } catch (RuntimeException e) {
                out.completeExceptionally(e);
            }
        });
        try {
            return out.get(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for the bus thread", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the bus thread did not answer: " + e, e);
        }
    }

    /** The bus's counters, read on its thread. */
    public BusStats stats() {
        return onBusThread(HostBus::stats);
    }

    /** Stops the bus (clients get their closing notices), closes its links and the store. */
    @Override
    public void close() {
        runner.close();
        for (Link l : links) {
            l.close();
        }
        inProcess.close();
        store.close();
    }
}
