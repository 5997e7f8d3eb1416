package io.spectrum.node.api;

/**
 * Told when the delivering subscribers of a vertex whose last publisher is this node's local host
 * go from 0 to more (active) or from more to 0 (idle). A producer may use it to back off.
 */
@FunctionalInterface
public interface ActivityListener {
    /**
     * @param path the vertex (a read-only view, valid during the call)
     * @param active true for 0 -> more, false for more -> 0
     * @param subscribers delivering subscribers after the change
     */
    void onActivity(VertexPath path, boolean active, int subscribers);
}
