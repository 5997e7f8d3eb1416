package io.spectrum.bridge;

/**
 * How vertex paths map to MQTT topics: {@code spectrum/<host>} followed by the path, so a host's
 * {@code /board1/sensor/temp} is {@code spectrum/<host>/board1/sensor/temp} (the path's first
 * segment is the board: a host mounts each board under its name, and a board's own paths are
 * relative to it, so a board bridged directly publishes its {@code /temp} as
 * {@code spectrum/<host>/temp}). Writes arrive on {@code <state topic>/set}, their refusals leave on
 * {@code <set topic>/error}; presence is {@code spectrum/<host>/$online} for the bridge and
 * {@code spectrum/<host>/<board>/$online} for each board (a path's first segment;
 * {@code spectrum/<host>/$peer/$online} for the vertices at the peer's root).
 */
public final class Topics {
    /** The first level of every Spectrum topic. */
    public static final String ROOT = "spectrum";
    /** The suffix of a state topic that takes writes. */
    public static final String SET = "/set";
    /** The suffix of a set topic on which its refusals leave. */
    public static final String ERROR = "/error";
    /** The last level of a presence topic (retained {@code true}; the last will says {@code false}). */
    public static final String ONLINE = "$online";
    /** The board of the vertices at the peer's root (a board bridged directly): {@code spectrum/<host>/$peer/$online}. */
    public static final String PEER = "$peer";

    private final String host;
    private final String prefix;

    /**
     * @throws IllegalArgumentException when {@code host} is empty or holds {@code / + #} or starts with {@code $}
     */
    public Topics(String host) {
        if (host == null || host.isEmpty() || host.startsWith("$") || !publishable(host) || host.contains("/")) {
            throw new IllegalArgumentException("the host name in MQTT topics must be one topic level without / + # "
                    + "and not start with $ (was '" + host + "')");
        }
        this.host = host;
        this.prefix = ROOT + "/" + host;
    }

    /** The host's topic level, as checked by the constructor. */
    public String host() {
        return host;
    }

    /** {@code spectrum/<host>/#}: everything this host publishes, and the set topics it takes. */
    public String all() {
        return prefix + "/#";
    }

    /** The state topic of {@code path}, or null when the path cannot be a topic (holds + or #, or is /). */
    public String state(String path) {
        if (path == null || path.length() < 2 || !publishable(path)) {
            return null;
        }
        return prefix + path;
    }

    /** The bridge's presence topic {@code spectrum/<host>/$online}. */
    public String online() {
        return prefix + "/" + ONLINE;
    }

    /** The presence topic of a board (a path's first segment): {@code spectrum/<host>/<board>/$online}. */
    public String boardOnline(String board) {
        return prefix + "/" + board + "/" + ONLINE;
    }

    /**
     * Whether {@code topic} is a write request to this host: under {@code spectrum/<host>/} and its
     * last level is {@code set}, whatever stands between (a request naming no vertex is still one,
     * and is refused on its {@link #setError} topic).
     */
    public boolean isSet(String topic) {
        return topic.startsWith(prefix + "/") && topic.endsWith(SET);
    }

    /** Where the refusal of the write request {@code setTopic} is published: the set topic + {@code /error}. */
    public static String setError(String setTopic) {
        return setTopic + ERROR;
    }

    /**
     * The path a {@code …/set} topic writes, or null when it names none: not one of this host's set
     * topics, nothing between host and {@code set} ({@code spectrum/<host>/set}, {@code
     * spectrum/<host>//set}), or an empty level ({@code spectrum/<host>/board1//led/set}).
     */
    public String setPath(String topic) {
        if (!isSet(topic) || topic.length() <= prefix.length() + SET.length() + 1) {
            return null;
        }
        String path = topic.substring(prefix.length(), topic.length() - SET.length());
        return path.length() < 2 || path.contains("//") || path.endsWith("/") ? null : path;
    }

    /** The path of a state topic of any host: {@code spectrum/h/board1/temp} is {@code /h/board1/temp}; null otherwise. */
    public static String fabricPath(String topic) {
        if (!topic.startsWith(ROOT + "/") || topic.endsWith(SET) || topic.endsWith(SET + ERROR)) {
            return null;
        }
        return topic.substring(ROOT.length());
    }

    /** The topic filter of a fabric pattern: {@code /h/board1/#} is {@code spectrum/h/board1/#}, {@code /#} is {@code spectrum/#}. */
    public static String filter(String pattern) {
        String p = pattern.startsWith("/") ? pattern : "/" + pattern;
        return ROOT + p;
    }

    private static boolean publishable(String s) {
        return s.indexOf('+') < 0 && s.indexOf('#') < 0 && s.indexOf('\0') < 0;
    }
}
