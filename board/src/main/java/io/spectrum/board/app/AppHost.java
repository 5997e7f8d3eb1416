package io.spectrum.board.app;

import com.pi4j.context.Context;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.runtime.NodeLoop;
import io.spectrum.time.Clock;
import io.spectrum.time.Sleeper;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.WireError;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Runs {@link BoardApp}s on a board's node: the {@link BoardContext} they see, their vertices
 * ({@link HostedVertex}), their periodic work and signals, all on the node's loop. The board file's
 * own vertices are such an app (io.spectrum.board.decl.DeclaredBoard), so a declared board and a
 * user's app go through the same API.
 */
public final class AppHost implements BoardProgram {
    /** One app and the settings the board file gives it. */
    public record Entry(String label, BoardApp app, Map<String, String> settings) {
        /** Copies the settings. */
        public Entry {
            settings = Map.copyOf(settings);
        }
    }

    private final String boardName;
    private final List<Entry> apps;
    private final Supplier<Context> pi4jFactory;
    private final Path sys;
    private final Path proc;
    private final List<HostedVertex> vertices = new ArrayList<>();
    private final List<String> declared = new ArrayList<>();
    private final List<Timer> timerList = new ArrayList<>();
    private final List<Entry> started = new ArrayList<>();
    private final java.util.concurrent.ConcurrentLinkedQueue<Runnable> early = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private Timer[] timers = new Timer[0];
    private NarrowNode node;
    private NodeLoop loop;
    private Context pi4j;
    private final Clock clock;
    private final Sleeper sleeper;

    /**
     * @param pi4jFactory makes the board's pi4j context when an app first asks for it
     * @param sys         the kernel's /sys (fake files in tests)
     * @param proc        the kernel's /proc
     */
    public AppHost(String boardName, List<Entry> apps, Supplier<Context> pi4jFactory, Path sys, Path proc) {
        this(boardName, apps, pi4jFactory, sys, proc, SystemClock.INSTANCE, SystemClock.INSTANCE);
    }

    /**
     * As {@link #AppHost(String, List, Supplier, Path, Path)}, on {@code clock} and {@code sleeper}
     * (the board's loop must run on the same clock: {@link #step} is given its time).
     */
    public AppHost(String boardName, List<Entry> apps, Supplier<Context> pi4jFactory, Path sys, Path proc,
            Clock clock, Sleeper sleeper) {
        this.clock = clock;
        this.sleeper = sleeper;
        this.boardName = boardName;
        this.apps = List.copyOf(apps);
        this.pi4jFactory = pi4jFactory;
        this.sys = sys;
        this.proc = proc;
    }

    /**
     * Starts every app in order. A failing app is stopped with the ones started before it (and the
     * pins they opened are released) and rethrown as an {@link IllegalStateException} naming it, so
     * the board refuses to start as a whole.
     */
    @Override
    public void install(NarrowNode node) {
        this.node = node;
        for (Entry e : apps) {
            try {
                e.app().start(new Ctx(e));
                started.add(e);
            } catch (Exception ex) {
                started.add(e); // stopped with the others: it may have started threads before it failed
                close();
                throw new IllegalStateException(e.label() + ": " + ex.getMessage(), ex);
            }
        }
        timers = timerList.toArray(new Timer[0]);
    }

    @Override
    public void bind(NodeLoop loop) {
        this.loop = loop;
    }

    /** Runs whatever work is due; returns when the next is. */
    @Override
    public long step(NarrowNode node, long now) {
        for (Runnable task; (task = early.poll()) != null; ) {
            task.run();
        }
        long next = now + 3_600_000_000_000L;
        Timer[] ts = timers;
        for (int i = 0; i < ts.length; i++) {
            Timer t = ts[i];
            if (now - t.next >= 0) {
                t.next = now - t.next > t.period ? now + t.period : t.next + t.period;
                runGuarded(t.label, t.work);
            }
            if (t.next - next < 0) {
                next = t.next;
            }
        }
        return next;
    }

    static void runGuarded(String label, Runnable work) {
        try {
            work.run();
        } catch (RuntimeException e) {
            System.err.println("board: " + label + ": " + e.getMessage());
        }
    }

    @Override
    public void close() {
        for (int i = started.size() - 1; i >= 0; i--) {
            try {
                started.get(i).app().stop();
            } catch (RuntimeException e) {
                System.err.println("board: " + started.get(i).label() + " did not stop cleanly: " + e.getMessage());
            }
        }
        started.clear();
        if (pi4j != null) {
            pi4j.shutdown();
            pi4j = null;
        }
    }

    /** The vertex declared at {@code path}, or null (tests). */
    public AppVertex vertex(String path) {
        for (HostedVertex v : vertices) {
            if (v.path().toString().equals(path)) {
                return v;
            }
        }
        return null;
    }

    /** The board's pi4j context, made on first use. */
    public Context pi4j() {
        if (pi4j == null) {
            pi4j = pi4jFactory.get();
        }
        return pi4j;
    }

    NodeLoop loop() {
        return loop;
    }

    /**
     * Runs {@code task} on the node's loop; without one (a host driven by hand: tests, tools) at the
     * start of the next {@link #step}, which is then the node's thread.
     */
    void submit(Runnable task) {
        NodeLoop l = loop;
        if (l != null) {
            l.submit(task);
        } else {
            early.add(task);
        }
    }

    private static final class Timer {
        final String label;
        final long period;
        final Runnable work;
        long next;

        Timer(String label, long period, Runnable work) {
            this.label = label;
            this.period = period;
            this.work = work;
        }
    }

    /** One app's view of the board. */
    private final class Ctx implements BoardContext {
        private final Entry entry;

        Ctx(Entry entry) {
            this.entry = entry;
        }

        @Override
        public String name() {
            return boardName;
        }

        @Override
        public AppVertex declare(String path, VertexSchema schema) {
            NodePath p;
            try {
                p = NodePath.of(path);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("path '" + path + "' is not a vertex path: " + e.getMessage());
            }
            if (declared.contains(p.toString())) {
                throw new IllegalArgumentException(path + " is declared twice");
            }
            int r = node.declare(p, schema);
            if (r != WireError.OK) {
                throw new IllegalArgumentException("cannot declare " + path + ": " + WireError.identity(r));
            }
            declared.add(p.toString());
            HostedVertex v = new HostedVertex(AppHost.this, entry.label(), node, p, schema);
            vertices.add(v);
            return v;
        }

        @Override
        public void every(long periodMillis, Runnable work) {
            if (periodMillis <= 0) {
                throw new IllegalArgumentException("a period must be positive, was " + periodMillis + " ms");
            }
            if (loop != null) {
                throw new IllegalStateException("every() is for start(): the board is already running");
            }
            long period = periodMillis * 1_000_000L;
            Timer t = new Timer(entry.label(), period, work);
            t.next = clock.nanoTime() + period;
            timerList.add(t);
        }

        @Override
        public Signal signal(Runnable work) {
            return new LoopSignal(AppHost.this, entry.label(), work);
        }

        @Override
        public Context pi4j() {
            return AppHost.this.pi4j();
        }

        @Override
        public Clock clock() {
            return clock;
        }

        @Override
        public Sleeper sleeper() {
            return sleeper;
        }

        @Override
        public String setting(String key, String fallback) {
            return entry.settings().getOrDefault(key, fallback);
        }

        @Override
        public Path sys() {
            return sys;
        }

        @Override
        public Path proc() {
            return proc;
        }
    }
}
