package io.spectrum.wide;

import io.spectrum.stats.ResourceCounter;
import java.util.Arrays;
import org.agrona.collections.IntArrayList;

/**
 * The handle tables of a {@link WideNode}: every live {@link Vertex} and open {@link Edge} by its
 * handle ({@code id}, the index the shared FWD side names it by in {@link WideStore}), and the two
 * counters that hold their ceilings. A freed handle is reused by the next registration; the freed
 * object keeps id -1, so a holder of it never reaches another object through it. The tables grow
 * (doubling) up to what the counters admit; the counters' ceilings are checked before a register.
 */
final class Handles {
    /** The vertex table's counter (capacity = the config's maxVertices). */
    final ResourceCounter vertices;
    /** The edge table's counter (capacity = the config's maxSubscribers). */
    final ResourceCounter edges;
    /** Vertices by handle (the root is 0); a removed vertex's handle is reused, like an edge's. */
    Vertex[] byId = new Vertex[64];
    private int vertexIds;
    private final IntArrayList freeVertexIds = new IntArrayList();
    /** Open edges by handle; freed handles are reused. */
    Edge[] edgeById = new Edge[64];
    private int edgeIds;
    private final IntArrayList freeEdgeIds = new IntArrayList();

    Handles(int maxVertices, int maxEdges) {
        vertices = new ResourceCounter("wide.vertices", maxVertices);
        edges = new ResourceCounter("wide.edges", maxEdges);
    }

    /** Gives v a handle (a freed one first) and counts it in the vertex table. */
    void register(Vertex v) {
        final int id = freeVertexIds.isEmpty() ? vertexIds++ : freeVertexIds.popInt();
        if (id >= byId.length) {
            byId = Arrays.copyOf(byId, byId.length * 2);
        }
        v.id = id;
        byId[id] = v;
        vertices.taken();
    }

    /** Frees v's handle for reuse (v keeps id -1) and returns its place in the vertex table. */
    void release(Vertex v) {
        byId[v.id] = null;
        freeVertexIds.addInt(v.id);
        v.id = -1;
        vertices.returned();
    }

    /**
     * True when the edge table has room for one more edge; else counts the refusal and answers
     * false (the caller refuses with FLOW_BACKPRESSURE).
     */
    boolean edgeRoom() {
        if (edges.inUse() >= edges.capacity()) {
            edges.countRefused();
            return false;
        }
        return true;
    }

    /** Gives e a handle (a freed one first) and counts it in the edge table. */
    void register(Edge e) {
        final int id = freeEdgeIds.isEmpty() ? edgeIds++ : freeEdgeIds.popInt();
        if (id >= edgeById.length) {
            edgeById = Arrays.copyOf(edgeById, edgeById.length * 2);
        }
        e.id = id;
        edgeById[id] = e;
        edges.taken();
    }

    /** Frees e's handle, when it still has one (e keeps id -1), and returns its place in the edge table. */
    void release(Edge e) {
        if (e.id >= 0) {
            edgeById[e.id] = null;
            freeEdgeIds.addInt(e.id);
            e.id = -1;
        }
        edges.returned();
    }
}
