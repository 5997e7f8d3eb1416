package io.spectrum.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import io.spectrum.time.Sleeper;
import io.spectrum.time.SystemClock;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Other hosts' trees as the broker holds them, kept current for a dashboard (see
 * {@code spectrum host --mqtt URL --mqtt-view}). One thread reads {@code spectrum/#} through a
 * {@link BrokerView} and keeps the latest value of every fabric path ({@code /<host>/<board>/…}) and
 * each host's {@code $online}; an emptied retained message (a purged vertex) removes its path. When
 * the broker goes away the view is reopened from 0.5 s doubling to 5 s apart (as the bridge
 * reconnects), and the broker sends the retained state again on the new subscription; meanwhile
 * the last known values stay and {@link #connected()} says false. The host named {@code self} is
 * skipped: its own tree comes from its node. Read-only: it never publishes.
 *
 * <p>Bounded: at most {@code capacity} paths; a new path past it is refused and counted
 * ({@link #refused()}); a known path is always updated.
 */
public final class FabricMirror implements AutoCloseable {
    /** One remote vertex: the fields of its payload ({@link io.spectrum.client.ValueLine}'s names); seq -1 and "" where absent. */
    public record Vertex(String path, String board, String text, String unit, long seq, boolean stale,
                         String publisher, String ts) { }

    /** One remote host: its presence ({@code $online}, once the broker sent it) and its vertices by path. */
    public record Host(String name, boolean presenceKnown, boolean online, List<Vertex> vertices) {
        /** Copies the vertices. */
        public Host {
            vertices = List.copyOf(vertices);
        }
    }

    /** The default bound on the paths the mirror holds. */
    public static final int DEFAULT_CAPACITY = 10_000;
    private static final long FIRST_RETRY_MS = 500;
    private static final long MAX_RETRY_MS = 5_000;

    private final BrokerAddress address;
    private final String self;
    private final int capacity;
    private final Consumer<String> notes;
    private final Thread thread;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    /** host -> its state; guarded by itself. */
    private final Map<String, HostState> hosts = new TreeMap<>();
    private int paths; // guarded by hosts
    private long refused; // guarded by hosts
    private volatile boolean connected;
    private volatile boolean closed;

    private final Sleeper sleeper;

    private static final class HostState {
        boolean presenceKnown;
        boolean online;
        final Map<String, Vertex> vertices = new TreeMap<>();
    }

    FabricMirror(BrokerAddress address, String self, int capacity, Consumer<String> notes) { // not started: tests feed take()
        this(address, self, capacity, notes, SystemClock.INSTANCE);
    }

    /** @param sleeper what the retry after a lost broker waits on */
    FabricMirror(BrokerAddress address, String self, int capacity, Consumer<String> notes, Sleeper sleeper) {
        this.sleeper = sleeper;
        if (capacity <= 0) {
            throw new IllegalArgumentException("the mirror's capacity must be positive (was " + capacity + ")");
        }
        this.address = address;
        this.self = self;
        this.capacity = capacity;
        this.notes = notes;
        this.thread = new Thread(this::run, "mqtt-view");
        thread.setDaemon(true);
    }

    /**
     * Starts reading every host but {@code self} from the broker at {@code address}; {@code notes}
     * gets one-line state changes (reading, lost). Returns at once; listeners hear of every value and
     * of the broker lost or regained.
     */
    public static FabricMirror start(BrokerAddress address, String self, int capacity, Consumer<String> notes) {
        return start(address, self, capacity, notes, SystemClock.INSTANCE);
    }

    /** As {@link #start(BrokerAddress, String, int, Consumer)}, the retry after a lost broker waiting on {@code sleeper}. */
    public static FabricMirror start(BrokerAddress address, String self, int capacity, Consumer<String> notes, Sleeper sleeper) {
        FabricMirror m = new FabricMirror(address, self, capacity, notes, sleeper);
        m.thread.start();
        return m;
    }

    /** Registers {@code listener}, called on the mirror's thread after each change; it must only signal. */
    public AutoCloseable onChange(Runnable listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    /** The remote hosts now, by name, each with its vertices by path (copies). */
    public List<Host> hosts() {
        synchronized (hosts) {
            List<Host> out = new ArrayList<>(hosts.size());
            hosts.forEach((name, h) -> out.add(new Host(name, h.presenceKnown, h.online, new ArrayList<>(h.vertices.values()))));
            return out;
        }
    }

    /** Whether the mirror is subscribed to the broker now. */
    public boolean connected() {
        return connected;
    }

    /** The most paths it holds. */
    public int capacity() {
        return capacity;
    }

    /** New paths refused because the mirror held {@code capacity} paths. */
    public long refused() {
        synchronized (hosts) {
            return refused;
        }
    }

    private void run() {
        long retry = FIRST_RETRY_MS;
        boolean said = false;
        while (!closed) {
            BrokerView v = null;
            try {
                v = BrokerView.open(address, Topics.filter("/#"));
                connected = true;
                changed();
                said = false;
                retry = FIRST_RETRY_MS;
                notes.accept("mqtt view: reading the other hosts from " + address);
                while (!closed && v.connected()) {
                    BrokerView.Value x = v.next(500);
                    if (x != null) {
                        take(x);
                    }
                }
                if (!closed) {
                    notes.accept("mqtt view: lost " + address + "; reading again when it is back");
                }
            } catch (IOException e) {
                if (!said) {
                    notes.accept("mqtt view: " + e.getMessage() + "; trying again");
                    said = true;
                }
            } catch (InterruptedException e) {
                return;
            } finally {
                if (connected) {
                    connected = false;
                    changed();
                }
                if (v != null) {
                    v.close();
                }
            }
            try {
                sleeper.sleepNanos(java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(retry));
            } catch (InterruptedException e) {
                return;
            }
            retry = Math.min(retry * 2, MAX_RETRY_MS);
        }
    }

    /** Takes one message from the broker into the mirror (package-private: tested without a broker). */
    void take(BrokerView.Value x) {
        String path = x.path();
        int second = path.indexOf('/', 1);
        if (second < 0) {
            return; // spectrum/<host> itself: not a vertex
        }
        String host = path.substring(1, second);
        if (host.equals(self) || host.isEmpty()) {
            return;
        }
        String rest = path.substring(second + 1);
        if (rest.endsWith("/" + Topics.ONLINE)) {
            return; // a board's presence (spectrum/<host>/<board>/$online): not a vertex
        }
        synchronized (hosts) {
            HostState h = hosts.get(host);
            if (rest.equals(Topics.ONLINE)) {
                if (h == null) {
                    h = new HostState();
                    hosts.put(host, h);
                }
                h.presenceKnown = !x.cleared();
                h.online = x.text().equals("true");
            } else if (x.cleared()) {
                if (h != null && h.vertices.remove(path) != null) {
                    paths--;
                }
            } else if (h != null && h.vertices.containsKey(path)) {
                h.vertices.put(path, vertex(path, rest, x));
            } else if (paths >= capacity) {
                refused++;
                return;
            } else {
                if (h == null) {
                    h = new HostState();
                    hosts.put(host, h);
                }
                h.vertices.put(path, vertex(path, rest, x));
                paths++;
            }
        }
        changed();
    }

    private void changed() {
        for (Runnable l : listeners) {
            l.run();
        }
    }

    private static Vertex vertex(String path, String rest, BrokerView.Value x) {
        JsonNode j = x.json();
        int slash = rest.indexOf('/');
        String board = slash < 0 ? "" : rest.substring(0, slash);
        JsonNode seq = j.get("seq");
        return new Vertex(path, board, x.text(), text(j, "unit"), seq != null && seq.canConvertToLong() ? seq.asLong() : -1,
                j.path("stale").asBoolean(false), text(j, "publisher"), text(j, "ts"));
    }

    private static String text(JsonNode j, String key) {
        JsonNode n = j.get(key);
        return n == null || n.isNull() ? "" : n.asText();
    }

    /** Stops reading and disconnects. */
    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        try {
            thread.join(3_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
