package io.spectrum.host.view;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One link's status and its counters (names as in {@link io.spectrum.link.LinkStats}).
 *
 * @param name     the link's own name (its address or device path)
 * @param up       a peer is there (a board answers, or a client is connected)
 * @param counters traffic, drop, refusal and peer-table counters in the link's order
 * @param board    the board reached over it ({@code board1}), "" when it is not a board's link
 * @param listener it waits for clients: no client is "listening", not "down"
 */
public record LinkView(String name, boolean up, Map<String, Long> counters, String board, boolean listener) {
    /** Copies the counters, keeping the link's order. */
    public LinkView {
        counters = Collections.unmodifiableMap(new LinkedHashMap<>(counters)); // keep the link's order
    }

    /** A link that is no board's and no listener. */
    public LinkView(String name, boolean up, Map<String, Long> counters) {
        this(name, up, counters, "", false);
    }

    /** "up", "down", or "listening" for a client listener without a client. */
    public String state() {
        return up ? "up" : listener ? "listening" : "down";
    }
}
