package io.spectrum.host.view;

import java.util.List;

/** One consistent, immutable picture of a node: its vertices and its links. */
public record HostSnapshot(String node, long version, List<VertexView> vertices, List<LinkView> links) {
    public HostSnapshot {
        vertices = List.copyOf(vertices);
        links = List.copyOf(links);
    }
}
