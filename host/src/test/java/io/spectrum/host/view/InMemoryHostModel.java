package io.spectrum.host.view;

import io.spectrum.wire.WireError;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A self-contained {@link HostModel} for tests: vertices with last values, sequence numbers and subscriber
 * slots with the suspended bit, plus links with counters. It follows the same rules as the node
 * (a suspended slot receives nothing, resume replays nothing, clear leaves a hole) so the
 * dashboard can be built and tested without a node, and views can be fed from any source.
 *
 * <p>All state is guarded by {@code this}; listeners are called after the lock is released.
 */
public final class InMemoryHostModel implements HostModel {

    /** A delivery seen by a subscriber slot (what the subscriber "received"). */
    public record Delivery(String path, String value, long seq) { }

    private static final class Slot {
        final String holder;
        final String target;
        boolean suspended;
        long delivered;
        final List<Delivery> received = new ArrayList<>();

        Slot(String holder, String target, boolean suspended) {
            this.holder = holder;
            this.target = target;
            this.suspended = suspended;
        }
    }

    private static final class Vertex {
        String value = "";
        boolean numeric;
        double number;
        String unit = "";
        long seq;
        boolean stale;
        VertexControl control;
        final List<Slot> slots = new ArrayList<>(); // null entries are holes left by clear
    }

    private final String nodeName;
    private final Map<String, Vertex> vertices = new TreeMap<>();
    private final Map<String, LinkView> links = new LinkedHashMap<>();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final List<String> actions = new ArrayList<>();
    private final VertexHistory history = new VertexHistory();
    private long version;

    public InMemoryHostModel(String nodeName) {
        this.nodeName = nodeName;
    }

    /** Publishes a value: assigns it, spends a sequence number, delivers to non-suspended slots. */
    public void publish(String path, String value) {
        publish(path, value, "");
    }

    /** Publishes a number of a declared vertex with its unit ({@code °C}): shown as {@code 21.5 °C}. */
    public void publish(String path, String value, String unit) {
        synchronized (this) {
            Vertex v = vertices.computeIfAbsent(path, p -> new Vertex());
            v.value = unit.isEmpty() ? value : value + " " + unit;
            v.unit = unit;
            v.seq++;
            v.stale = false;
            Double n = parseNumber(value);
            v.numeric = n != null;
            v.number = n == null ? 0 : n;
            if (n != null) {
                history.record(path, System.currentTimeMillis(), n, v.seq);
            }
            for (Slot s : v.slots) {
                if (s != null && !s.suspended) {
                    s.delivered++;
                    s.received.add(new Delivery(path, value, v.seq));
                }
            }
            version++;
        }
        fire();
    }

    /** Appends a subscriber slot and returns its position. */
    public int subscribe(String path, String holder, String target) {
        int slot;
        synchronized (this) {
            Vertex v = vertices.computeIfAbsent(path, p -> new Vertex());
            v.slots.add(new Slot(holder, target, false));
            slot = v.slots.size() - 1;
            version++;
        }
        fire();
        return slot;
    }

    public void markStale(String path, boolean stale) {
        synchronized (this) {
            Vertex v = vertices.get(path);
            if (v == null || v.stale == stale) {
                return;
            }
            v.stale = stale;
            version++;
        }
        fire();
    }

    public void putLink(LinkView link) {
        synchronized (this) {
            links.put(link.name(), link);
            version++;
        }
        fire();
    }

    /** What the slot has received so far (a copy). Empty when the slot does not exist. */
    public synchronized List<Delivery> received(String path, int slot) {
        Slot s = slot(path, slot);
        return s == null ? List.of() : List.copyOf(s.received);
    }

    /** The actions applied through the HostModel surface, e.g. "suspend /a/b 0" (a copy). */
    public synchronized List<String> actions() {
        return List.copyOf(actions);
    }

    @Override
    public synchronized HostSnapshot snapshot() {
        List<VertexView> out = new ArrayList<>(vertices.size());
        for (Map.Entry<String, Vertex> e : vertices.entrySet()) {
            Vertex v = e.getValue();
            List<SlotView> subs = new ArrayList<>();
            for (int i = 0; i < v.slots.size(); i++) {
                Slot s = v.slots.get(i);
                if (s != null) {
                    subs.add(new SlotView(i, s.holder, s.target, s.suspended, s.delivered));
                }
            }
            out.add(new VertexView(e.getKey(), v.value, v.numeric, v.number, v.unit, v.seq, v.stale, subs, v.control));
        }
        return new HostSnapshot(nodeName, version, out, new ArrayList<>(links.values()));
    }

    /** Declares the vertex writable from a view with {@code control} (as a board's WRITE right would). */
    public void writable(String path, VertexControl control) {
        synchronized (this) {
            vertices.computeIfAbsent(path, p -> new Vertex()).control = control;
            version++;
        }
        fire();
    }

    /** Records a sample at a given time, as if the value had been published then (seq 0: before the live ones). */
    public void recordAt(String path, long ts, double value) {
        history.record(path, ts, value, 0);
    }

    @Override
    public VertexHistory history() {
        return history;
    }

    /**
     * Writes like a board: only a vertex declared {@link #writable}, a number within the control's
     * range (0 or 1 for a toggle); the value is then published (subscribers receive it).
     */
    @Override
    public WriteOutcome write(String path, String text) {
        String unit;
        synchronized (this) {
            Vertex v = vertices.get(path);
            if (v == null) {
                return WriteOutcome.refused(WireError.PATH_NOT_FOUND, path + " does not exist");
            }
            if (v.control == null) {
                return WriteOutcome.refused(WireError.ACCESS_DENIED, path + " is declared read-only");
            }
            Double n = parseNumber(text);
            if (n == null || n < v.control.min() || n > v.control.max()) {
                return WriteOutcome.refused(WireError.SCHEMA_TYPE_MISMATCH, "'" + text + "' is out of range; the vertex holds a number from "
                        + v.control.min() + " to " + v.control.max());
            }
            actions.add("write " + path + " " + text);
            unit = v.unit;
        }
        publish(path, text, unit);
        return WriteOutcome.OK;
    }

    @Override
    public int suspend(String path, int slot) {
        return setSuspended(path, slot, true, "suspend");
    }

    @Override
    public int resume(String path, int slot) {
        return setSuspended(path, slot, false, "resume");
    }

    @Override
    public int clear(String path, int slot) {
        synchronized (this) {
            if (slot(path, slot) == null) {
                return WireError.PATH_NOT_FOUND;
            }
            vertices.get(path).slots.set(slot, null);
            actions.add("clear " + path + " " + slot);
            version++;
        }
        fire();
        return WireError.OK;
    }

    @Override
    public Registration onChange(Runnable listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    private int setSuspended(String path, int slot, boolean suspended, String action) {
        synchronized (this) {
            Slot s = slot(path, slot);
            if (s == null) {
                return WireError.PATH_NOT_FOUND;
            }
            s.suspended = suspended; // the same state again is a no-op write, as on the node
            actions.add(action + " " + path + " " + slot);
            version++;
        }
        fire();
        return WireError.OK;
    }

    private Slot slot(String path, int slot) {
        Vertex v = vertices.get(path);
        if (v == null || slot < 0 || slot >= v.slots.size()) {
            return null;
        }
        return v.slots.get(slot);
    }

    private void fire() {
        for (Runnable l : listeners) {
            l.run();
        }
    }

    /** The value as a finite number, or null when it is not one. */
    public static Double parseNumber(String text) {
        if (text == null || text.isEmpty() || text.length() > 40) {
            return null;
        }
        try {
            double d = Double.parseDouble(text.trim());
            return Double.isFinite(d) ? d : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
