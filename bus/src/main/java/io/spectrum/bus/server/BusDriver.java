package io.spectrum.bus.server;

import io.spectrum.link.Readiness;
import io.spectrum.wide.WideNode;
import java.util.function.IntSupplier;

/**
 * A loop that runs the bus's turns on its own thread instead of a thread of the bus's (the host's
 * node loop: docs/bus.md, "Identity, transports and the loop"). The bus's links, the door's ends and
 * its finished seals wake the loop through {@link #readiness()}.
 */
public interface BusDriver {
    /** How the loop is woken: channels it watches, and a wake from any thread. */
    Readiness readiness();

    /**
     * From now on, runs {@code turn} once per duty cycle (it returns the work it did). With
     * {@code polled} some of the bus's input cannot wake the loop, which must then run it on a short
     * period. Any thread.
     */
    void share(IntSupplier turn, boolean polled);

    /** Whether the calling thread is the loop's (a task for the bus then runs at once). */
    boolean onLoopThread();

    /** Stops running {@code turn}. Any thread. */
    void unshare(IntSupplier turn);

    /**
     * The node this loop runs, whose vertices the bus's topics then are (docs/bus.md, "Topics are
     * the node's vertices"); null: the bus keeps a node of its own.
     */
    default WideNode node() {
        return null;
    }
}
