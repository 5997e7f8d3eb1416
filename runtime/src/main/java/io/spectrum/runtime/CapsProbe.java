package io.spectrum.runtime;

import io.spectrum.link.LivenessProbe;
import io.spectrum.link.Link;
import io.spectrum.node.ServingNode;
import io.spectrum.node.fwd.RemoteClient;
import io.spectrum.node.api.NodePath;
import io.spectrum.time.Clock;
import io.spectrum.wire.Bytes;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.Names;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

import java.security.SecureRandom;

/**
 * The liveness ping: when a link finds a peer quiet for its ping interval, send that peer a FWD
 * READ of {@code /$node/caps}. Its answer (the extensions map) is traffic, which is what refreshes
 * the link's liveness clock; a peer that does not answer within the link's timeout is reported down.
 *
 * <p>Restart detection: every node process run through {@link NodeAgent} adds a random
 * {@code spectrum.boot} key to its own caps ({@link #stampBoot}). When a peer's caps answer differs
 * from the previous one, the peer restarted in less than the link timeout (so the link never saw it
 * go): the probe then reports the peer down and up to the node, which evicts what the old
 * incarnation held, marks its vertices stale and re-sends this node's subscriptions.
 * The ping goes out through the node's {@link RemoteClient}, whose requests carry the extensions
 * announcement ({@link io.spectrum.wire.Extensions}): a node answers the {@code spectrum.boot} key
 * only to a peer that announced, so a plain libtracer v1 peer reading {@code $node/caps} never sees it.
 *
 * <p>Slot checks (no silent loss): once per {@code verifyNanos} (by default
 * {@link #VERIFY_NANOS}, the links' default ping interval) the sweep asks the node's
 * {@link RemoteClient#verify} to check, for every up peer, that each subscription this node holds
 * there still has its slot (the generation-guarded READ of {@code :subscribers[N@gen]}), and to
 * re-append what is gone. This runs whether or not the link is quiet: a peer that keeps delivering
 * other values never triggers a ping, yet one of its slots may be gone.
 *
 * <p>At most one ping per (link, peer) is outstanding: the previous request is collected and
 * released before a new ping goes out, and an unanswered one is released when the link reports its
 * peer down (else every client that left holds one of the node's remote request handles for good). Runs on the node's thread (links call it from inside
 * {@code node.poll()}; {@link #sweep()} from the agent). Allocation-free after construction.
 */
public final class CapsProbe implements LivenessProbe {
    /** The vertex the ping reads: the peer's {@code /$node/caps} extensions map. */
    public static final NodePath CAPS = NodePath.of(Names.CAPS_PATH);
    private static final int ANSWER_BYTES = 256;
    /** Default slot-check period: the links' default ping interval (3 s). */
    public static final long VERIFY_NANOS = 3_000_000_000L;

    private final ServingNode node;
    private final Link[] links;
    private final int maxPeers;
    /** Outstanding ping request handle per (installed link, peer), or -1. */
    private final int[] pending;
    /** The last caps answer per (link, peer); length -1 = none yet. */
    private final byte[] answers;
    private final int[] answerLen;
    /**
     * When the peer answered its caps ping with no caps (a client, {@code PeerClient}, answers
     * {@code path::not_found}), by the node's clock; {@code Long.MIN_VALUE}: it did not. There is no
     * baseline to keep then, so the sweep asks again only after {@link #CAPLESS_RETRY_NANOS}, not
     * every housekeeping period (a refusal may pass: a baseline is still taken when caps come).
     */
    private final long[] caplessAt;
    /** How soon the sweep asks again a peer that answered without caps: the default ping interval. */
    private static final long CAPLESS_RETRY_NANOS = LinkSpec.DEFAULT_PING_MILLIS * 1_000_000L;
    /** When each (link, peer)'s slots were last checked (node clock); Long.MIN_VALUE = not since up. */
    private final long[] checkedAt;
    private final Clock clock;
    private final long verifyNanos;
    private final byte[] scratch = new byte[1 << 16];
    private int linkCount;
    private long sent;
    private long answered;
    private long restarts;
    private long checks;

    /** A probe that checks slots every {@link #VERIFY_NANOS} by the node's clock. */
    public CapsProbe(ServingNode node, int maxLinks, int maxPeers) {
        this(node, maxLinks, maxPeers, VERIFY_NANOS);
    }

    /**
     * @param verifyNanos period of the slot checks ({@link RemoteClient#verify}) per up peer, by the
     *                    node's clock; 0 turns them off
     */
    public CapsProbe(ServingNode node, int maxLinks, int maxPeers, long verifyNanos) {
        this.node = node;
        this.clock = node.clock();
        this.verifyNanos = verifyNanos;
        this.checkedAt = new long[maxLinks * maxPeers];
        java.util.Arrays.fill(checkedAt, Long.MIN_VALUE);
        this.links = new Link[maxLinks];
        this.maxPeers = maxPeers;
        this.pending = new int[maxLinks * maxPeers];
        this.answers = new byte[maxLinks * maxPeers * ANSWER_BYTES];
        this.answerLen = new int[maxLinks * maxPeers];
        this.caplessAt = new long[maxLinks * maxPeers];
        java.util.Arrays.fill(caplessAt, Long.MIN_VALUE);
        java.util.Arrays.fill(pending, -1);
        java.util.Arrays.fill(answerLen, -1);
    }

    /**
     * Rewrites the node's own {@code /$node/caps} with a random {@code spectrum.boot} key appended,
     * so peers can tell this process start from the previous one. The node leaves the key out of
     * the answer to a peer that did not announce the extensions (it sees the v1 caps).
     */
    public static void stampBoot(ServingNode node) {
        byte[] caps = new byte[ANSWER_BYTES];
        int n = node.read(CAPS, caps, 0, caps.length);
        TlvIndex x = new TlvIndex();
        byte[] out = new byte[ANSWER_BYTES];
        TlvWriter w = new TlvWriter(4).wrap(out, 0, out.length);
        w.begin(TlvType.SETTINGS);
        if (n > 0 && new FrameDecoder().decode(caps, 0, n, x) == WireError.OK && x.type(0) == TlvType.SETTINGS) {
            for (int c = x.firstChild(0); c != TlvIndex.NONE; c = x.nextSibling(c)) {
                w.raw(caps, x.start(c), x.untrailedLength(c));
            }
        }
        w.leaf(TlvType.NAME, Names.BOOT).value(new SecureRandom().nextInt() & 0xFFFFFFFFL, 4).end();
        if (w.error() == WireError.OK) {
            node.write(CAPS, out, 0, w.length());
        }
    }

    /** Wires this probe into a link's liveness hook ({@link Link#setLivenessProbe}). */
    public void install(Link link) {
        if (linkCount == links.length) {
            throw new IllegalStateException("CapsProbe holds " + links.length + " links");
        }
        links[linkCount++] = link;
        link.setLivenessProbe(this);
    }

    private int slot(Link link, int peer) {
        if (peer < 0 || peer >= maxPeers) {
            return -1;
        }
        for (int i = 0; i < linkCount; i++) {
            if (links[i] == link) {
                return i * maxPeers + peer;
            }
        }
        return -1;
    }

    @Override
    public void probe(Link link, int peer) {
        int s = slot(link, peer);
        if (s < 0) {
            return;
        }
        collect(s);
        RemoteClient rc = node.remote();
        if (pending[s] >= 0) {
            rc.release(pending[s]);   // unanswered: the peer may be gone; ask again
        }
        int k = rc.read(link, peer, CAPS);
        pending[s] = k;
        if (k >= 0) {
            sent++;
        }
    }

    /**
     * Collects answered pings and keeps a baseline answer for every live peer (call from the node's
     * loop): a peer that came up gets one ping at once, so a later restart has something to differ
     * from; a peer the link reports down loses its baseline (the link already told the node).
     */
    public void sweep() {
        for (int i = 0; i < linkCount; i++) {
            Link link = links[i];
            for (int peer = 0; peer < maxPeers; peer++) {
                int s = i * maxPeers + peer;
                if (pending[s] >= 0) {
                    collect(s);
                }
                boolean up = link.isPeerUp(peer);
                if (!up) {
                    if (pending[s] >= 0) { // a ping the gone peer never answered: its request handle goes with it
                        node.remote().release(pending[s]);
                        pending[s] = -1;
                    }
                    answerLen[s] = -1;
                    caplessAt[s] = Long.MIN_VALUE;
                    checkedAt[s] = Long.MIN_VALUE;
                    continue;
                }
                verifyIfDue(s, link, peer);
                if (answerLen[s] < 0 && pending[s] < 0
                        && (caplessAt[s] == Long.MIN_VALUE || clock.nanoTime() - caplessAt[s] >= CAPLESS_RETRY_NANOS)) {
                    int k = node.remote().read(link, peer, CAPS);
                    pending[s] = k;
                    if (k >= 0) {
                        sent++;
                    }
                }
            }
        }
    }

    /** Checks the slots held at an up peer once per period (the first period starts when it is seen up). */
    private void verifyIfDue(int s, Link link, int peer) {
        if (verifyNanos <= 0) {
            return;
        }
        long now = clock.nanoTime();
        if (checkedAt[s] == Long.MIN_VALUE) {
            checkedAt[s] = now; // just up: the append (re-)sent on peer up is fresh
        } else if (now - checkedAt[s] >= verifyNanos) {
            checkedAt[s] = now;
            checks += node.remote().verify(link, peer);
        }
    }

    /** If the ping in slot s was answered: compare with the last answer, release the request. */
    private void collect(int s) {
        int k = pending[s];
        RemoteClient rc = node.remote();
        if (k < 0 || rc.requestState(k) != RemoteClient.DONE) {
            return;
        }
        answered++;
        int n = rc.requestError(k) == WireError.OK ? rc.requestResult(k, scratch, 0) : 0;
        rc.release(k);
        pending[s] = -1;
        if (n <= 0 || n > ANSWER_BYTES) {
            if (n <= 0 && answerLen[s] < 0) {
                caplessAt[s] = clock.nanoTime(); // answered, but with no caps to compare: no baseline yet
            }
            return;
        }
        int base = s * ANSWER_BYTES;
        int prev = answerLen[s];
        boolean changed = prev >= 0 && !Bytes.equals(answers, base, prev, scratch, 0, n);
        System.arraycopy(scratch, 0, answers, base, n);
        answerLen[s] = n;
        if (changed) {
            // The peer is a new incarnation: what the old one held is gone; re-establish.
            restarts++;
            Link link = links[s / maxPeers];
            int peer = s % maxPeers;
            node.onPeerDown(link, peer);
            node.onPeerUp(link, peer);
        }
    }

    /** Pings sent since the probe was made. */
    public long sent() {
        return sent;
    }

    /** Pings whose answer came back (collected before the next ping to the same peer). */
    public long answered() {
        return answered;
    }

    /** Slot checks and re-appends sent by the periodic verification. */
    public long checks() {
        return checks;
    }

    /** Peer restarts detected through a changed caps answer. */
    public long restarts() {
        return restarts;
    }
}
