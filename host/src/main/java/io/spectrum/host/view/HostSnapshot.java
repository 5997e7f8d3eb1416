package io.spectrum.host.view;

import java.util.List;

/** One consistent, immutable picture of a node: its vertices and its links. */
public record HostSnapshot(String node, long version, List<VertexView> vertices, List<LinkView> links) {
    /** Copies the lists, so a snapshot never changes once made. */
    public HostSnapshot {
        vertices = List.copyOf(vertices);
        links = List.copyOf(links);
    }
}
