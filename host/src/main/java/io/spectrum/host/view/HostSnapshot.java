package io.spectrum.host.view;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One consistent, immutable picture of a node: its vertices, its links, and its own tables and pools
 * ({@code resources}: every {@code Node.resources()} entry as {@link Counters#resource} names it,
 * {@code wide.vertices.capacity}, …; empty when the model has none).
 */
public record HostSnapshot(String node, long version, List<VertexView> vertices, List<LinkView> links,
                           Map<String, Long> resources) {
    /** Copies the lists and the map, so a snapshot never changes once made. */
    public HostSnapshot {
        vertices = List.copyOf(vertices);
        links = List.copyOf(links);
        resources = Collections.unmodifiableMap(new LinkedHashMap<>(resources)); // keep the node's order
    }

    /** A picture without the node's resources (a model that has none). */
    public HostSnapshot(String node, long version, List<VertexView> vertices, List<LinkView> links) {
        this(node, version, vertices, links, Map.of());
    }
}
