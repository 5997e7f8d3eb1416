package io.spectrum.bus.state;

import java.util.ArrayList;
import java.util.List;
import io.spectrum.bus.protocol.Retention;

/** One declared topic: its incarnation, retention, sequence, retained entry and subscriptions. */
final class Topic {
    /** An accepted message at its sequence (queued, retained or both). */
    record Entry(long sequence, Carried body) {
    }

    final String name;
    final String incarnation;
    final Retention retention;
    long sequence;
    Entry retained;
    final List<Subscription> subscriptions = new ArrayList<>();

    Topic(String name, String incarnation, Retention retention) {
        this.name = name;
        this.incarnation = incarnation;
        this.retention = retention;
    }
}
