package io.spectrum.board.app;

import java.util.concurrent.atomic.AtomicBoolean;

/** A {@link Signal}: the first raise queues one run of the work on the node's loop; later raises until it runs are free. */
final class LoopSignal implements Signal, Runnable {
    private final AppHost host;
    private final String label;
    private final Runnable work;
    private final AtomicBoolean queued = new AtomicBoolean();

    LoopSignal(AppHost host, String label, Runnable work) {
        this.host = host;
        this.label = label;
        this.work = work;
    }

    @Override
    public void raise() {
        if (queued.compareAndSet(false, true)) {
            host.submit(this);
        }
    }

    @Override
    public void run() {
        queued.set(false);
        AppHost.runGuarded(label, work);
    }
}
