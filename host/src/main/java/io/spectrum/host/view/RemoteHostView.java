package io.spectrum.host.view;

import java.util.List;

/**
 * Another host's tree as a broker holds it (read-only), with its presence ({@code $online}).
 *
 * @param name          the host's name (its topic level under {@code spectrum/})
 * @param presenceKnown the broker holds the host's {@code $online}
 * @param online        its {@code $online} says true (false after its last will)
 * @param vertices      its vertices by path
 */
public record RemoteHostView(String name, boolean presenceKnown, boolean online, List<RemoteVertexView> vertices) {
    /** Copies the vertices. */
    public RemoteHostView {
        vertices = List.copyOf(vertices);
    }

    /** "online", "offline", or "unknown" before its {@code $online} arrived. */
    public String state() {
        return !presenceKnown ? "unknown" : online ? "online" : "offline";
    }
}
