package io.spectrum.host.metrics;

import io.spectrum.host.view.HostModel;
import io.spectrum.host.view.HostSnapshot;
import io.spectrum.host.view.VertexHistory;
import io.spectrum.host.view.WriteOutcome;
import io.spectrum.time.Clock;

import java.util.function.Supplier;

/** A read-only {@link HostModel} whose snapshot and clock a test gives (every action refused as unused here). */
final class SnapshotModel implements HostModel {
    private final Supplier<HostSnapshot> snapshot;
    private final Clock clock;

    SnapshotModel(Supplier<HostSnapshot> snapshot, Clock clock) {
        this.snapshot = snapshot;
        this.clock = clock;
    }

    @Override
    public HostSnapshot snapshot() {
        return snapshot.get();
    }

    @Override
    public Clock clock() {
        return clock;
    }

    @Override
    public int suspend(String path, int slot) {
        throw new UnsupportedOperationException();
    }

    @Override
    public int resume(String path, int slot) {
        throw new UnsupportedOperationException();
    }

    @Override
    public int clear(String path, int slot) {
        throw new UnsupportedOperationException();
    }

    @Override
    public WriteOutcome write(String path, String text) {
        throw new UnsupportedOperationException();
    }

    @Override
    public VertexHistory history() {
        return new VertexHistory();
    }

    @Override
    public Registration onChange(Runnable listener) {
        return () -> { };
    }
}
