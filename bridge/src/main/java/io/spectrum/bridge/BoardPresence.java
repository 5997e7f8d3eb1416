package io.spectrum.bridge;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Whether each board the bridge publishes is available (docs/mqtt.md, "Presence"): the rule behind
 * {@code spectrum/<host>/<board>/$online}. A board is a path's first segment (behind a host, the
 * mount name); the vertices at the root are the peer's own ({@link #board}). Its vertices' latest
 * news decides:
 *
 * <ul>
 *   <li>a value read from the peer (the tree walk: behind a host the READ reached the board) or
 *       delivered without the stale mark makes that vertex <i>fresh</i>;</li>
 *   <li>a delivery stamped stale (behind a host: the host's liveness found the board's link down and
 *       marked what it published) or a delete notice makes it <i>stale</i>;</li>
 *   <li>the board is available while one of its vertices is fresh, or none is stale (a board with
 *       only unknown vertices is not called dead); and never while the peer itself does not answer
 *       the bridge's periodic check ({@link #peer}).</li>
 * </ul>
 *
 * Used by the peer side's thread only. {@link #changes} hands back the boards whose availability
 * changed since it was last asked (the first answer for a board is a change), in the order seen.
 */
final class BoardPresence {
    private static final class Board {
        final Set<String> fresh = new HashSet<>();
        final Set<String> stale = new HashSet<>();
        Boolean told;

        boolean available(boolean peer) {
            return peer && (!fresh.isEmpty() || stale.isEmpty());
        }
    }

    private final Map<String, Board> boards = new HashMap<>();
    private final List<String> order = new ArrayList<>();
    private boolean peer = true;

    /** A vertex of {@code path}'s board is fresh ({@code stale} false) or stale. */
    void vertex(String path, boolean stale) {
        String name = board(path);
        Board b = boards.get(name);
        if (b == null) {
            b = new Board();
            boards.put(name, b);
            order.add(name);
        }
        if (stale) {
            b.fresh.remove(path);
            b.stale.add(path);
        } else {
            b.stale.remove(path);
            b.fresh.add(path);
        }
    }

    /** Whether the peer answered the bridge's last check: while it does not, no board is available. */
    void peer(boolean answered) {
        peer = answered;
    }

    boolean peer() {
        return peer;
    }

    /** Whether the board of {@code path} is available now (false for a board never seen). */
    boolean available(String board) {
        Board b = boards.get(board);
        return b != null && b.available(peer);
    }

    /** The boards whose availability is not what was last handed out, with the new value; marks them told. */
    Map<String, Boolean> changes() {
        Map<String, Boolean> out = new java.util.LinkedHashMap<>();
        for (String name : order) {
            Board b = boards.get(name);
            boolean now = b.available(peer);
            if (b.told == null || b.told != now) {
                b.told = now;
                out.put(name, now);
            }
        }
        return out;
    }

    /** Every board seen so far. */
    List<String> boards() {
        return List.copyOf(order);
    }

    /**
     * The board of a path: its first segment when more follow ({@code /board1/sensor/temp} is
     * {@code board1}: behind a host, the mount name), {@link Topics#PEER} for a vertex at the root
     * ({@code /temp}: the peer's own, a board bridged directly; a board's paths are relative to it).
     */
    static String board(String path) {
        int slash = path.indexOf('/', 1);
        return slash < 0 ? Topics.PEER : path.substring(1, slash);
    }
}
