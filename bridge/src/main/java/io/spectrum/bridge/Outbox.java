package io.spectrum.bridge;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The hand-off from the peer side (the client's thread) to the broker side (the publisher thread).
 * It never makes the producer wait: {@link #offer} takes the lock only for a few map and deque
 * operations (the broker side never holds it across I/O) and always returns at once.
 *
 * <ul>
 *   <li><b>Coalescing.</b> A retained message (a vertex's state, a cleared state, a discovery
 *       config) whose topic already has an unsent message in the queue replaces that message in
 *       place ({@link #coalesced} counts them): retained state only ever needs its newest value, so
 *       while the broker side is behind the queue holds at most one message per topic and a value
 *       waits at most one pass over the topics, however fast the board writes. Events
 *       ({@code …/set/error}) are never coalesced.</li>
 *   <li><b>Bound.</b> Past {@code capacity} queued messages the oldest is dropped ({@link #dropped}
 *       counts them).</li>
 *   <li><b>Latest state.</b> The latest retained message of every topic is kept apart, and the
 *       broker side publishes all of it again after every (re)connect, so neither coalescing nor
 *       dropping loses a topic's final state.</li>
 * </ul>
 */
final class Outbox {
    /** One queue entry; a retained one is found again by its topic, so a newer value can replace it. */
    private static final class Slot {
        Outgoing message;

        Slot(Outgoing message) {
            this.message = message;
        }
    }

    private final int capacity;
    private final ArrayDeque<Slot> queue = new ArrayDeque<>();
    private final Map<String, Slot> unsent = new HashMap<>();
    private final Map<String, Outgoing> latest = new LinkedHashMap<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private long offered;
    private long dropped;
    private long coalesced;

    Outbox(int capacity) {
        this.capacity = capacity;
    }

    /**
     * Queues {@code m}, or replaces the unsent message of its topic when {@code m} is retained;
     * drops the oldest when full. A retained message also becomes the topic's latest state.
     */
    void offer(Outgoing m) {
        lock.lock();
        try {
            offered++;
            if (m.retained()) {
                if (m.payload().length == 0) {
                    latest.remove(m.topic());
                } else {
                    latest.put(m.topic(), m);
                }
                Slot waiting = unsent.get(m.topic());
                if (waiting != null) {
                    waiting.message = m;
                    coalesced++;
                    return;
                }
            }
            if (queue.size() >= capacity) {
                forget(queue.pollFirst());
                dropped++;
            }
            Slot s = new Slot(m);
            queue.addLast(s);
            if (m.retained()) {
                unsent.put(m.topic(), s);
            }
            notEmpty.signal();
        } finally {
            lock.unlock();
        }
    }

    /** The next message, waiting up to {@code millis}; null when none came. */
    Outgoing poll(long millis) throws InterruptedException {
        lock.lock();
        try {
            long nanos = TimeUnit.MILLISECONDS.toNanos(millis);
            while (queue.isEmpty()) {
                if (nanos <= 0) {
                    return null;
                }
                nanos = notEmpty.awaitNanos(nanos);
            }
            Slot s = queue.pollFirst();
            forget(s);
            return s.message;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Puts back a message the broker side could not send: first in line, unless a newer message of
     * its topic is waiting already (then it is superseded and counted as coalesced) or the queue is
     * full (then it is dropped and counted).
     */
    void putBack(Outgoing m) {
        lock.lock();
        try {
            if (m.retained() && unsent.containsKey(m.topic())) {
                coalesced++;
                return;
            }
            if (queue.size() >= capacity) {
                dropped++;
                return;
            }
            Slot s = new Slot(m);
            queue.addFirst(s);
            if (m.retained()) {
                unsent.put(m.topic(), s);
            }
            notEmpty.signal();
        } finally {
            lock.unlock();
        }
    }

    private void forget(Slot s) {
        if (s.message.retained() && unsent.get(s.message.topic()) == s) {
            unsent.remove(s.message.topic());
        }
    }

    /** The latest retained state of every topic, in first-published order. */
    List<Outgoing> latest() {
        lock.lock();
        try {
            return new ArrayList<>(latest.values());
        } finally {
            lock.unlock();
        }
    }

    /** Messages handed to {@link #offer} so far. */
    long offered() {
        lock.lock();
        try {
            return offered;
        } finally {
            lock.unlock();
        }
    }

    long dropped() {
        lock.lock();
        try {
            return dropped;
        } finally {
            lock.unlock();
        }
    }

    /** Messages replaced, unsent, by a newer message of the same retained topic. */
    long coalesced() {
        lock.lock();
        try {
            return coalesced;
        } finally {
            lock.unlock();
        }
    }

    int queued() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    int retainedTopics() {
        lock.lock();
        try {
            return latest.size();
        } finally {
            lock.unlock();
        }
    }
}
