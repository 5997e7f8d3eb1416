package io.spectrum.hil;

import io.spectrum.runtime.CapsProbe;
import io.spectrum.client.DeliveryLog;
import io.spectrum.client.PeerClient;
import io.spectrum.runtime.NodeAgent;
import io.spectrum.link.Link;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.time.SystemClock;

import java.time.Duration;

/**
 * What a scenario works with: the target (link, reset line), the one client on that link
 * ({@link PeerClient}, reply routes {@value #REPLY_PREFIX}n), the record of what the board sent
 * ({@link FrameLog}) and of the deliveries ({@link DeliveryLog}), and the host node riding the same
 * link. The client is shared by all scenarios of a run, so scenarios use their own reply and
 * delivery routes ({@link #route}) and clean up the subscriptions they make.
 */
public final class HilContext {
    private final BoardTarget target;
    /** Prefix of the suite's reply routes. */
    public static final String REPLY_PREFIX = "/hil/r/";

    private final PeerClient client;
    private final FrameLog frames = new FrameLog();
    private final DeliveryLog deliveries = new DeliveryLog();
    private final NarrowNode hostNode;
    private int routes;
    private String note = "";

    /**
     * Opens the target's link and sets up the client, the frame and delivery logs and the host node on it; throws
     * whatever opening the link throws.
     */
    public HilContext(BoardTarget target) throws Exception {
        this.target = target;
        Link link = target.link();
        AgentTransport transport = new AgentTransport(link, target.peer());
        // the suite checks a Spectrum board's whole surface, the slot identity of appends included
        this.client = new PeerClient(transport, target.timeout(), REPLY_PREFIX).announceExtensions(true);
        client.setTap(frames);
        client.onDelivery(deliveries);
        // The host is a proper peer from the first frame: a board that pings its peers (a READ of
        // the host's $node/caps) and reaps the edges of a silent one must get its answers, or the
        // suite's own subscriptions would be evicted in the middle of a scenario.
        // the host mirrors the board's values under its own undeclared paths (deliveries are remote writes)
        this.hostNode = new NarrowNode(NodeConfig.builder().remoteWritesToUndeclared(true).build());
        // The runtime's one node loop, run on the scenario's thread: the client pumps it while it
        // waits. It polls the link (every frame goes to the client first, then to the node), runs
        // the node's timers and the project's liveness ping (CapsProbe: READs the board's
        // $node/caps when the link finds it quiet, and reports a changed spectrum.boot, a restart
        // faster than the link timeout, as down + up).
        NodeAgent agent = new NodeAgent("hil host", hostNode, SystemClock.INSTANCE, null,
                NodeAgent.HOUSEKEEPING_NANOS);
        agent.attach(link);
        agent.setFrameTap(transport.tap());
        transport.driveWith(agent.onCallerThread());
    }

    /** The board under test: its link, reset line and liveness. */
    public BoardTarget target() {
        return target;
    }

    /**
     * The suite's one client on the board link (reply routes {@value #REPLY_PREFIX}n); pumping it also runs the host
     * node.
     */
    public PeerClient client() {
        return client;
    }

    /** Every frame the board sent this run. */
    public FrameLog frames() {
        return frames;
    }

    /** Every delivery the board sent this run. */
    public DeliveryLog deliveries() {
        return deliveries;
    }

    /**
     * The NARROW node on the host side of the board link. It sees every frame the client receives
     * (so it gets the replies and deliveries addressed to it), hears the link's peer up / down
     * reports, answers the board's liveness pings and pings the board through the project's
     * {@link CapsProbe}. The stale scenario subscribes through it.
     */
    public NarrowNode hostNode() {
        return hostNode;
    }

    /** How long a scenario waits for one answer (the target's timeout). */
    public Duration timeout() {
        return target.timeout();
    }

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
