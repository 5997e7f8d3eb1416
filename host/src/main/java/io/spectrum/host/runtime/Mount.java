package io.spectrum.host.runtime;

import io.spectrum.link.Link;

import java.util.List;

/**
 * A board link mounted on the host by name: requests under {@code /name} are forwarded on
 * (link, peer) with the name stripped (the node's router), and the host's own vertices under
 * {@code /name} are fed from the board (upstream edges, {@link Upstream}).
 *
 * @param name one path segment ({@code board1})
 * @param top  the board's top-level names when its root cannot be listed (the reference node's
 *             {@code sensor}, {@code cfg}); empty when the root lists itself
 */
public record Mount(String name, Link link, int peer, List<String> top) {
    /** Copies {@code top}. */
    public Mount {
        top = List.copyOf(top);
    }

    /** {@code /name}. */
    public String root() {
        return "/" + name;
    }

    /** True when {@code path} is {@code /name} or lies below it. */
    public boolean covers(String path) {
        return path.startsWith(root()) && (path.length() == root().length() || path.charAt(root().length()) == '/');
    }

    /** The board's own path for a host path under this mount: {@code /name/a/b} -> {@code /a/b}, {@code /name} -> {@code /}. */
    public String remote(String path) {
        String rest = path.substring(root().length());
        return rest.isEmpty() ? "/" : rest;
    }
}
