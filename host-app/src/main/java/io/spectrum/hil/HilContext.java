package io.spectrum.hil;

import io.spectrum.hil.client.BoardClient;
import io.spectrum.board.CapsProbe;
import io.spectrum.link.Link;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
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
        // The host is a proper peer from the first frame: a board that pings its peers (a READ of
        // the host's $node/caps) and reaps the edges of a silent one must get its answers, or the
        // suite's own subscriptions would be evicted in the middle of a scenario.
        hostNode();
    }

    public BoardTarget target() {
        return target;
    }

    public BoardClient client() {
        return client;
    }

    private NarrowNode hostNode;

    /**
     * The NARROW node on the host side of the board link: it sees every frame
     * the client receives (so it gets the replies and deliveries addressed to it), hears the link's
     * peer up / down reports, and pings the board through the project's {@link CapsProbe} (a READ of
     * the board's capability map whenever the link finds it quiet). The reset scenarios use it to check staleness and automatic re-subscription.
     */
    public NarrowNode hostNode() throws Exception {
        // created by the constructor; kept lazy-safe for clarity
        if (hostNode == null) {
            Link link = target.link();
            NarrowNode node = new NarrowNode(new NodeConfig());
            node.attach(link); // sets the node as the link's peer listener; the client keeps polling
            // the project's liveness ping: READs the board's $node/caps when the link finds it quiet,
            // and reports a changed spectrum.boot (a restart faster than the link timeout) as down + up
            CapsProbe.stampBoot(node);
            CapsProbe probe = new CapsProbe(node, 1, 1);
            probe.install(link);
            client.attachTap(node, () -> {
                node.tick();
                probe.sweep();
            });
            hostNode = node;
        }
        return hostNode;
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
