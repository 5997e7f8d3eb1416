package io.spectrum.bus.state;

import io.spectrum.bus.protocol.Retention;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import java.util.ArrayList;
import java.util.List;

/**
 * One declared topic: its vertex on the node (which holds its value and numbers its publishes), its
 * incarnation and retention, the bus's view of the retained value (the artifacts it roots), the
 * bus's subscriptions and the node edge that feeds them.
 */
final class Topic {
    /**
     * An accepted message at its sequence (queued, retained or both); {@code stale}: null when it was
     * current when handed to the subscriptions, else the node's reason.
     */
    record Entry(long sequence, Carried body, String stale) {
        Entry(long sequence, Carried body) {
            this(sequence, body, null);
        }
    }

    final String name;
    final NodePath path;
    final String incarnation;
    final Retention retention;
    /** The longest delivery envelope of this topic with an empty payload, measured once (a write's room check adds its bytes). */
    final int emptyEnvelope;
    /**
     * The node's retained value as the bus holds it: its sequence and body (a bus publish's
     * attachments root their artifacts here), or null. It stands for the node's value only while the
     * node's value sequence is the same ({@link Topics#reconcile}).
     */
    Entry retained;
    final List<io.spectrum.bus.state.Subscription> subscriptions = new ArrayList<>();
    /** The in-process edge on {@link #path} that feeds the subscriptions; open while there are some. */
    Subscription edge;
    /** The last sequence handed to the subscriptions (a node notice of the same value is not handed again). */
    long handed;

    Topic(String name, NodePath path, String incarnation, Retention retention, int emptyEnvelope) {
        this.emptyEnvelope = emptyEnvelope;
        this.name = name;
        this.path = path;
        this.incarnation = incarnation;
        this.retention = retention;
    }
}
