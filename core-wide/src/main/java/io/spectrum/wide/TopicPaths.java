package io.spectrum.wide;

/**
 * The two spellings of one vertex: a bus topic's dotted name and the node path it is
 * ({@code lab.setpoint} is {@code /lab/setpoint}; docs/bus.md, "Topics are the node's vertices").
 * A path segment never holds a dot, so each spelling has exactly one other.
 */
public final class TopicPaths {
    private TopicPaths() {
    }

    /** The node path of topic {@code topic}: {@code a.b-c} is {@code /a/b-c}. */
    public static String path(String topic) {
        return "/" + topic.replace('.', '/');
    }

    /** The topic spelling of node path {@code path} ({@code /a/b} is {@code a.b}), or null for the root or a non-path. */
    public static String topic(String path) {
        if (path == null || path.length() < 2 || path.charAt(0) != '/' || path.indexOf('.') >= 0) {
            return null;
        }
        return path.substring(1).replace('/', '.');
    }

    /** The other spelling of a vertex's name (a path's topic, a topic's path), or null when it has none. */
    public static String other(String name) {
        if (name == null || name.isEmpty()) {
            return null;
        }
        return name.charAt(0) == '/' ? topic(name) : path(name);
    }
}
