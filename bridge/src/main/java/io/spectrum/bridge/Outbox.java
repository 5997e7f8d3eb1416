package io.spectrum.bridge;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The hand-off from the peer side (the client's thread) to the broker side (the publisher thread):
 * a bounded queue that never blocks the producer — past its bound the oldest message is dropped and
 * counted ({@link #dropped}) — plus the latest retained state per topic, which the broker side
 * publishes again after every (re)connect. A dropped message loses only an intermediate value: the
 * newest message of a topic is always behind its older ones, and the latest state is kept apart.
 */
final class Outbox {
    private final int capacity;
    private final ArrayDeque<Outgoing> queue = new ArrayDeque<>();
    private final Map<String, Outgoing> latest = new LinkedHashMap<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private long dropped;
    private long offered;

    Outbox(int capacity) {
        this.capacity = capacity;
    }

    /** Queues {@code m} (dropping the oldest when full); a retained message also becomes the topic's latest state. */
    void offer(Outgoing m) {
        lock.lock();
        try {
            if (m.retained()) {
                if (m.payload().length == 0) {
                    latest.remove(m.topic());
                } else {
                    latest.put(m.topic(), m);
                }
            }
            if (queue.size() >= capacity) {
                queue.pollFirst();
                dropped++;
            }
            queue.addLast(m);
            offered++;
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
            return queue.pollFirst();
        } finally {
            lock.unlock();
        }
    }

    /** Puts back a message the broker side could not send (it goes first, unless it was superseded meanwhile by dropping). */
    void putBack(Outgoing m) {
        lock.lock();
        try {
            if (queue.size() >= capacity) {
                dropped++;
                return;
            }
            queue.addFirst(m);
        } finally {
            lock.unlock();
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

    long dropped() {
        lock.lock();
        try {
            return dropped;
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
