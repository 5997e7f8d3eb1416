package io.spectrum.host.runtime;

import io.spectrum.client.ValueFormat;
import io.spectrum.client.ValueText;
import io.spectrum.host.view.HostModel;
import io.spectrum.host.view.HostSnapshot;
import io.spectrum.host.view.LinkView;
import io.spectrum.host.view.SlotView;
import io.spectrum.host.view.VertexControl;
import io.spectrum.host.view.VertexHistory;
import io.spectrum.host.view.VertexView;
import io.spectrum.node.api.VertexSchema;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Renders the host's snapshots from the captures the node thread hands over ({@link #handOver}),
 * and keeps the in-memory history of numeric values and the change listeners.
 *
 * <p>Threading: {@link #spare} and {@link #handOver} are called by the node thread only (they copy
 * nothing of the node; the caller filled the capture). Rendering happens on this renderer's own
 * thread once {@link #start()}ed, on a reader's thread that finds a capture not rendered yet
 * ({@link #snapshot()}), or, with no renderer thread (the loop on the caller's thread), in
 * {@link #handOver} itself. Whoever renders holds {@link #renderLock}, which guards the history
 * bookkeeping and the snapshot's version; the snapshot itself is a volatile field any thread reads.
 * No I/O happens under the lock (listeners are told under it, as before the split: they must not block).
 */
final class SnapshotRenderer {
    private final String name;
    private final Consumer<String> warn;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final VertexHistory history = new VertexHistory();
    /** The seq of each vertex's last recorded history sample (under {@link #renderLock}). */
    private final Map<String, Long> recordedSeq = new HashMap<>();
    /** The unit each vertex's history is in (under {@link #renderLock}). */
    private final Map<String, String> recordedUnit = new HashMap<>();
    /** Held while a capture is rendered into the snapshot (the renderer, or a reader that found one waiting). */
    private final Object renderLock = new Object();
    /** The latest capture not rendered yet, and the reused ones (at most three exist). */
    private final AtomicReference<Capture> pendingCapture = new AtomicReference<>();
    private final BlockingQueue<Capture> spareCaptures = new ArrayBlockingQueue<>(3);
    /** Wakes the renderer: a capture waits (or the host closes). */
    private final BlockingQueue<Boolean> renderSignal = new ArrayBlockingQueue<>(1);
    /** The thread that renders the snapshots of a started host (null on the caller's loop: rendered there). */
    private volatile Thread renderer;
    private volatile boolean rendering;
    /** The number of the latest capture handed over (node thread writes) and of the latest rendered (under the lock). */
    private volatile long captured;
    private volatile long rendered;
    private volatile HostSnapshot snapshot;
    /** The snapshot's version (under {@link #renderLock}). */
    private long version;

    /** A renderer for the host {@code name}; {@code warn} takes a render that failed. Renders nothing until a capture comes. */
    SnapshotRenderer(String name, Consumer<String> warn) {
        this.name = name;
        this.warn = warn;
        this.snapshot = new HostSnapshot(name, 0, List.of(), List.of());
    }

    /** What one vertex looked like when captured (node thread), for the renderer. */
    static final class CapturedVertex {
        String path;
        byte[] value = new byte[32];
        int length;
        VertexSchema schema;
        long seq;
        boolean stale;
        long origin;
        String reason;
        List<SlotView> subscribers;
    }

    /** A snapshot as the node thread copied it: reused (its vertices' buffers too), rendered elsewhere. */
    static final class Capture {
        final List<CapturedVertex> vertices = new ArrayList<>();
        int count;
        List<LinkView> links = List.of();
        Map<String, Long> resources = Map.of();
        /** The host clock's epoch ms when captured: the time of the in-memory history's samples. */
        long atMillis;
        /** Which capture this is (1, 2, …; one replaced before it was rendered is skipped). */
        long number;
        boolean dirty;

        CapturedVertex next() {
            if (count == vertices.size()) {
                vertices.add(new CapturedVertex());
            }
            return vertices.get(count++);
        }

        /** Lets go of what the capture refers to (its buffers stay for the next one). */
        void clear() {
            for (int i = 0; i < count; i++) {
                CapturedVertex v = vertices.get(i);
                v.path = null;
                v.schema = null;
                v.reason = null;
                v.subscribers = null;
            }
            count = 0;
            links = List.of();
            resources = Map.of();
        }
    }

    /** Starts the renderer thread; call once, before the node thread hands over captures from its own thread. */
    void start() {
        rendering = true;
        Thread t = new Thread(this::renderLoop, "host " + name + " snapshot");
        t.setDaemon(true);
        renderer = t;
        t.start();
    }

    /** A capture to fill: a reused one, or a new one (at most three exist). Node thread. */
    Capture spare() {
        Capture c = spareCaptures.poll();
        return c != null ? c : new Capture(); // one filled here, one waiting, one being rendered
    }

    /**
     * Hands a filled capture to the renderer, replacing one not rendered yet (its changes carried
     * over): the renderer always renders the latest. {@code changed}: something changed since the
     * last capture that the values alone may not show. Node thread.
     */
    void handOver(Capture c, boolean changed) {
        c.number = captured + 1;
        while (true) {
            Capture old = pendingCapture.get();
            c.dirty = changed || old != null && old.dirty;
            if (pendingCapture.compareAndSet(old, c)) {
                if (old != null) {
                    old.clear(); // replaced before the renderer took it
                    spareCaptures.offer(old);
                }
                captured = c.number;
                break;
            }
        }
        if (renderer != null) {
            renderSignal.offer(Boolean.TRUE); // one waiting signal is enough: the renderer takes the latest
        } else {
            renderPending(); // the loop on the caller's thread (tests on a ManualClock): rendered now
        }
    }

    /** The latest snapshot: what was handed over before the call, rendered (here if the renderer has not yet). Any thread. */
    HostSnapshot snapshot() {
        if (rendered != captured) {
            renderPending(); // waits for a render under way, then renders what still waits
        }
        return snapshot;
    }

    /** The in-memory history of numeric values, filled as captures are rendered. Any thread. */
    VertexHistory history() {
        return history;
    }

    /** Adds a listener told (on the rendering thread) when a rendered snapshot changed. Any thread. */
    HostModel.Registration onChange(Runnable listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    /** Stops the renderer thread, if started, and waits for it. Call after the node thread stopped. */
    void close() {
        Thread r = renderer;
        if (r != null) {
            rendering = false;
            renderSignal.offer(Boolean.TRUE); // or the one already waiting wakes it
            try {
                r.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Renders the latest capture, if one waits, into the snapshot; tells listeners when something
     * changed. On the renderer thread, or on a reader's ({@link #snapshot()}: what was captured
     * before the call is shown), or on the node thread when the loop runs on the caller's thread.
     */
    private void renderPending() {
        synchronized (renderLock) {
            Capture c = pendingCapture.getAndSet(null);
            if (c == null) {
                return;
            }
            try {
                render(c);
            } finally {
                rendered = c.number;
                c.clear();
                spareCaptures.offer(c);
            }
        }
    }

    /** Makes the snapshot of a capture; holds {@link #renderLock}. */
    private void render(Capture c) {
        List<VertexView> vertices = new ArrayList<>(c.count);
        for (int i = 0; i < c.count; i++) {
            CapturedVertex v = c.vertices.get(i);
            ValueText value = v.length > 0 ? ValueFormat.render(v.value, 0, v.length, v.schema) : ValueText.NONE;
            remember(v.path, value, v.seq, c.atMillis);
            vertices.add(new VertexView(v.path, value.text(), value.numeric(), value.number(), value.unit(),
                    v.seq, v.stale, v.subscribers, VertexControl.of(v.schema), v.origin, v.reason));
        }
        HostSnapshot prev = snapshot;
        if (!c.dirty && prev.vertices().equals(vertices) && prev.links().equals(c.links) && prev.resources().equals(c.resources)) {
            return;
        }
        snapshot = new HostSnapshot(name, ++version, vertices, c.links, c.resources);
        for (Runnable l : listeners) {
            l.run();
        }
    }

    /** The renderer thread: renders each capture the node thread hands over, until the host closes. */
    private void renderLoop() {
        try {
            while (true) {
                renderSignal.take();
                if (!rendering) {
                    return;
                }
                try {
                    renderPending();
                } catch (RuntimeException e) {
                    warn.accept("the snapshot could not be rendered: " + e); // the next capture is rendered again
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Adds a numeric vertex's value to its history once per published seq, at {@code atMillis}. Holds {@link #renderLock}. */
    private void remember(String path, ValueText value, long seq, long atMillis) {
        if (!value.numeric()) {
            if (recordedSeq.remove(path) != null) {
                history.forget(path);
            }
            recordedUnit.remove(path);
            return;
        }
        String unit = value.unit();
        if (!unit.equals(recordedUnit.put(path, unit))) {
            // rendered by another declaration now (read after the first values came raw, or the board
            // restarted with another): earlier samples are in another unit, so they go
            history.forget(path);
            recordedSeq.remove(path);
        }
        Long last = recordedSeq.get(path);
        if (last == null || last != seq) {
            recordedSeq.put(path, seq);
            history.record(path, atMillis, value.number(), seq);
        }
    }
}
