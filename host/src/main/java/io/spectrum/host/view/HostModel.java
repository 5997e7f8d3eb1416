package io.spectrum.host.view;

/**
 * What the dashboard (and the terminal views) need from a running node: a consistent snapshot,
 * the three subscriber actions of the RFC-0035 {@code :subscribers[N]} surface, and a change signal.
 *
 * <p>Implementations are thread-safe. {@link #snapshot()} returns an immutable copy, so callers
 * can serialise and write it to a socket without holding any of the model's locks.
 */
public interface HostModel {

    /** An immutable copy of the current state. */
    HostSnapshot snapshot();

    /** Sets the slot's suspended bit (bit 9). Returns a {@link io.spectrum.wire.WireError} code. */
    int suspend(String path, int slot);

    /** Clears the slot's suspended bit; nothing is replayed. Returns a WireError code. */
    int resume(String path, int slot);

    /** Removes the subscriber in the slot (an empty-STATUS write). Returns a WireError code. */
    int clear(String path, int slot);

    /**
     * Writes {@code text} to the vertex, parsed by its declaration; a board's vertex (under a mount) is
     * written on the board (the host's remote write), whose value then comes back as a delivery.
     * A vertex without the WRITE right is refused. Blocks until the write is answered.
     */
    WriteOutcome write(String path, String text);

    /** The host's clock: the dashboard's timestamps and its views' expiry read it. */
    default io.spectrum.time.Clock clock() {
        return io.spectrum.time.SystemClock.INSTANCE;
    }

    /**
     * What view {@code view} (a dashboard page) shows now: the model keeps the values of what open
     * views show coming (a host subscribes to them) and stops when no view shows a path any more.
     * An empty collection ends the view. Models that always have every value ignore it.
     */
    default void show(String view, java.util.Collection<String> paths) {
    }

    /** The last minutes of every numeric vertex (kept by the model, not by a page). */
    VertexHistory history();

    /** The history that lasts (docs/host.md, "History"), or null when the host keeps none. */
    default io.spectrum.host.history.HistoryStore historyStore() {
        return null;
    }

    /**
     * Registers a listener called after every change (values, subscribers, links). The listener
     * runs on the thread that made the change, so it must only signal, never do I/O.
     * Returns a handle that unregisters it.
     */
    Registration onChange(Runnable listener);

    /** Unregisters a listener. */
    interface Registration extends AutoCloseable {
        @Override
        void close();
    }
}
