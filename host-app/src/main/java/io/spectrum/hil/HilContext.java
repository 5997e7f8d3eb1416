package io.spectrum.hil;

import io.spectrum.hil.client.BoardClient;
import java.time.Duration;

/**
 * What a scenario works with: the target (link, reset line) and one client on that link. The client
 * is shared by all scenarios of a run, so scenarios use their own reply and delivery routes
 * ({@link #route}) and clean up the subscriptions they make.
 */
public final class HilContext {
    private final BoardTarget target;
    private final BoardClient client;

    public HilContext(BoardTarget target) throws Exception {
        this.target = target;
        this.client = new BoardClient(target.link(), target.peer(), target.timeout());
    }

    public BoardTarget target() {
        return target;
    }

    public BoardClient client() {
        return client;
    }

    public Duration timeout() {
        return target.timeout();
    }

    private int routes;
    private String note = "";

    /** A short fact a passing scenario reports in its detail cell (e.g. the versions it read). */
    public void note(String text) {
        note = text == null ? "" : text;
    }

    /** Returns and clears the note. */
    public String takeNote() {
        String n = note;
        note = "";
        return n;
    }

    /** A fresh delivery route for this run, e.g. "/hil/s/subscribe-deliver/3". */
    public String route(String scenario) {
        return "/hil/s/" + scenario + "/" + (++routes);
    }
}
