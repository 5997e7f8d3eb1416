package io.spectrum.board.app;

import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.VertexSchema;

/** One declared vertex of a {@link BoardApp}: publish to it, hear peers' writes of it. */
public interface AppVertex {
    /** The vertex's path. */
    NodePath path();

    /** The vertex's declaration: type, unit, scale and offset, range, rights. */
    VertexSchema schema();

    /**
     * Publishes a raw VALUE ({@code raw × scale + offset} is the value in its unit) to the vertex's
     * subscribers. Node thread only; allocates nothing.
     *
     * @return a {@link io.spectrum.wire.WireError} status: OK, or SCHEMA_TYPE_MISMATCH when the
     *     value does not fit the declaration, its range or its type's width (nothing is published)
     */
    int publish(long raw);

    /**
     * {@link #publish(long)} of the raw value nearest to {@code value} in the vertex's unit; NaN or an
     * infinite value is refused (SCHEMA_TYPE_MISMATCH), not published as some number.
     */
    int publishUnit(double value);

    /** Publishes text to a NAME vertex (allocates: start-up and rare updates). */
    int publishText(String text);

    /**
     * Marks the vertex's value stale because of {@code reason} (one line that says what failed, e.g.
     * {@code i2c 1/0x48 reg 0: read 0 of 2 bytes}): {@code spectrum read} and {@code sub}, the
     * dashboard and MQTT show the last value as stale with the reason, until the next
     * {@link #publish} clears the mark. For a source that cannot read: a value is shown as current
     * only when it is. Node thread only.
     *
     * @return a {@link io.spectrum.wire.WireError} status
     */
    int markStale(String reason);

    /** The last raw value published or written (0 before any). */
    long raw();

    /** The last value in the vertex's unit. */
    default double value() {
        return schema().toUnit(raw());
    }

    /**
     * Calls {@code handler} on the node's loop after each accepted write by a peer (the declaration
     * must give peers the write right). One handler per vertex.
     */
    void onWrite(WriteHandler handler);
}
