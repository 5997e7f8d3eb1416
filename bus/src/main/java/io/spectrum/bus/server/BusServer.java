package io.spectrum.bus.server;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Lane;
import io.spectrum.link.Link;
import io.spectrum.link.Readiness;
import io.spectrum.link.local.InProcessLink;
import io.spectrum.link.PeerListener;
import io.spectrum.wire.BusError;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.FwdRewrite;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;
import io.spectrum.bus.protocol.ArtifactRef;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusFields;
import io.spectrum.bus.protocol.BusFrames;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.bus.protocol.BusMessage;
import io.spectrum.bus.protocol.BusWire;
import io.spectrum.bus.protocol.ClientIdentity;
import io.spectrum.bus.protocol.Retention;
import io.spectrum.bus.protocol.SubscriptionMode;
import io.spectrum.bus.state.BusConnection;
import io.spectrum.wide.Grants;
import io.spectrum.bus.state.HostBus;
import io.spectrum.bus.state.Replies;
import io.spectrum.bus.state.Seals;
import io.spectrum.bus.store.ArtifactStore;
import io.spectrum.bus.store.SealJob;

/**
 * The host bus on its links: decodes each connection's request frames ({@link BusFrames}), runs
 * them on the {@link HostBus}, answers, and sends what the bus hands each connection (deliveries
 * and notices) on its lane. One connection is one (link, peer); its identity is the name the peer
 * gave the link ({@link Link#peerName}), or anonymous. Single-threaded: {@link #doWork()} runs on
 * the bus's thread, like every {@code Agent}; no lock is held across I/O.
 *
 * <p>Commands and their fields: docs/bus.md. Every refusal is the bus's typed error in the reply;
 * a frame that is not a bus request is counted and ignored.
 *
 * <p>Sealing ({@code artifact.seal}, and a publish, call or reply that seals its sender's writer
 * on send) does its checks on this thread, then hands the copy and hash ({@link SealJob}s) to the
 * {@code sealer} executor and parks the connection: its later frames wait, in order, while other
 * connections are served. Each job's completion comes back through a concurrent queue that
 * {@link #doWork()} drains; the command then runs again with the jobs' outcomes, re-checking what
 * may have changed meanwhile (the connection closed, the writer released, the bus stopped, a
 * subscriber's queue filled), and is answered or refused (a job it did not take is rolled back
 * in the store); then the parked frames run.
 *
 * <p>The node door ({@link #nodeDoor}): with one, a frame whose dst is not under {@code /$bus} is
 * for the host's node, not refused: it goes to the node through the connection's own end of the
 * door (opened at its first such frame, named by the connection's client id), and what the node
 * sends that end comes back on the connection (TOPIC lane), polled here each turn. The node thread
 * serves the door's other side; this thread never calls the node. A relay the end refuses is
 * answered as a libtracer hop answers a path it cannot route (a typed ERROR reply), or, for a frame
 * that wants no answer, counted ({@link #relaysRefused()}). The end closes with its connection.
 * docs/bus.md, "The host's node through the bus".
 *
 * <p>A name handed over (docs/bus.md, "Reconnecting under the same name"): a connection's first
 * frame whose name an open connection still holds does not meet CONFLICT at once. When the holder's
 * link already knows its peer is gone (its close is read, its down not yet told here), the holder
 * is ended first and the newcomer opens. Otherwise the newcomer's frames wait, in order, unanswered,
 * while the links are polled: once the holder goes they run and it opens; a holder still there
 * after {@link #NAME_HANDOVER_MILLIS} by the bus's clock is live, and the newcomer is refused
 * CONFLICT as before. A client that closed its socket before dialling again always finds its old
 * close read first, since the socket's end of stream reached the bus before the new hello did.
 */
public final class BusServer implements FrameHandler, PeerListener {
    /**
     * An in-process link for this bus's clients, sized by its limits: frames up to
     * {@link BusLimits#maxFrameBytes()}, at most {@link BusLimits#maxReceiveBytes()} of frames the bus has
     * not polled yet (over all ends), up to {@code maxEnds} ends connected at once.
     */
    public static InProcessLink inProcessLink(int id, int maxEnds, BusLimits limits) {
        return new InProcessLink(id, maxEnds, limits.maxFrameBytes(), limits.maxReceiveBytes());
    }

    /**
     * The door to the host's node for a bus with {@code limits}: an in-process link whose ends are the
     * bus connections' ({@link #nodeDoor}), at most {@link BusLimits#maxClients()} of them (one per
     * connection), carrying frames up to {@code maxFrame} bytes (at most the bus's own frame limit)
     * and holding at most {@code budgetBytes} waiting either way. The node's thread serves the link;
     * the bus holds its ends.
     */
    public static InProcessLink nodeDoorLink(int id, BusLimits limits, int maxFrame, long budgetBytes) {
        return new InProcessLink(id, limits.maxClients(), Math.min(maxFrame, limits.maxFrameBytes()), budgetBytes);
    }

    private static final int FRAMES_PER_POLL = 64;
    /** Frames the node sent one connection that a turn passes on, at most. */
    private static final int NODE_FRAMES_PER_TURN = 64;
    private static final int MESSAGES_PER_TURN = 256;
    /** Frames one connection may send while its seal runs; one more closes it (BACKPRESSURE). */
    public static final int MAX_PARKED_FRAMES = 1024;
    /**
     * How long (the bus's clock) a connection's first request waits for an open connection holding
     * its name to go before it is refused CONFLICT: the holder's close, sent before the newcomer
     * dialled, is read within a poll or two; one still there after this is live.
     */
    public static final long NAME_HANDOVER_MILLIS = 1_000;

    private final HostBus bus;
    private final ArtifactStore store;
    private final String storeRoot;
    private final String storeId;
    private final Function<String, Grants> grants;
    private final List<Link> links = new ArrayList<>();
    private final Map<Long, Conn> conns = new LinkedHashMap<>();
    /** Connections whose first request waits for their name's holder to go (each at most once; see {@link #waitsForName}). */
    private final List<Conn> waiting = new ArrayList<>();
    private final Executor sealer;
    /** Seal jobs that have run, from the sealer's threads (one entry per job). */
    private final ConcurrentLinkedQueue<Parked> sealsDone = new ConcurrentLinkedQueue<>();
    private long framesRefused;
    /** The door to the host's node (null: frames not for the bus are refused). */
    private InProcessLink door;
    /** The loop that runs this server's turns and how to wake it (null: a loop that polls). */
    private volatile Readiness readiness;
    private long framesRelayed;
    private long relaysRefused;
    private long framesFromNode;
    /**
     * Bytes of the frames parked behind running seals or a name's handover, over every connection
     * ({@link BusLimits#maxReceiveBytes()}).
     */
    private long parkedBytes;
    private boolean pullOnly;

    /** One peer of one link and its bus connection (opened by its first request). */
    private static final class Conn {
        final Link link;
        final int peer;
        /** The link's generation of {@link #peer} when this connection began: a later holder differs. */
        final long generation;
        /** When the peer last sent a frame (the bus's clock): the idle timeout counts from here. */
        long heardAt;
        BusConnection bus;
        /** The bus refused to open this connection (full, a name in use, stopped): it goes once told. */
        boolean refused;
        /** A message the link had no room for: sent before any other. */
        byte[] held;
        Lane heldLane;
        /** The command whose seal jobs are running, or null. */
        Parked sealing;
        /** Frames that arrived while {@link #sealing} or while {@link #waitingSince} is set, in order. */
        final ArrayDeque<byte[]> parked = new ArrayDeque<>();
        /**
         * Since when (the bus's clock) this connection's first request waits for the open connection
         * holding its name to go; -1 when it does not wait.
         */
        long waitingSince = -1;
        /** The wait for the name is over: the next request opens the connection or is refused at once. */
        boolean waited;
        /** This connection's end of the node door, opened at its first frame for the node; null before. */
        InProcessLink.End node;
        /** A frame from the node the link had no room for: sent before the node's next. */
        byte[] nodeHeld;

        Conn(Link link, int peer, long generation, long now) {
            this.link = link;
            this.peer = peer;
            this.generation = generation;
            this.heardAt = now;
        }
    }

    /** A command parked on its seal jobs: its frame (a copy), its seals, and the jobs still running. */
    private static final class Parked {
        final Conn conn;
        final byte[] frame;
        final Seals seals;
        int running;

        Parked(Conn conn, byte[] frame, Seals seals) {
            this.conn = conn;
            this.frame = frame;
            this.seals = seals;
        }
    }

    /**
     * A server whose seal jobs run inline, on the thread that runs {@link #doWork()} (the bus
     * tests' deterministic pull mode).
     *
     * @param grants what each client id may do ({@code null} for an anonymous connection)
     */
    public BusServer(HostBus bus, ArtifactStore store, Function<String, Grants> grants) {
        this(bus, store, grants, Runnable::run);
    }

    /**
     * @param grants what each client id may do ({@code null} for an anonymous connection)
     * @param sealer runs seal jobs (file I/O only); a job it rejects runs inline
     */
    public BusServer(HostBus bus, ArtifactStore store, Function<String, Grants> grants, Executor sealer) {
        if (sealer == null) {
            throw new IllegalArgumentException("a bus server needs a sealer");
        }
        this.sealer = sealer;
        this.bus = bus;
        this.store = store;
        this.storeRoot = store.root().toAbsolutePath().toString();
        this.storeId = store.storeId();
        this.grants = grants;
    }

    /**
     * The server's turns ({@link #doWork}) run on a loop that blocks until {@code r} is woken (the
     * host's node loop): every link attached so far and every door end opened from now on wakes it on
     * input, and a finished seal wakes it. Call once, before the loop runs the server, after the links
     * are attached.
     *
     * @return false when some input cannot wake the loop (a listening socket's new connections, a full
     *     socket's writability): the loop must then run the server on a short period too
     */
    public boolean wakes(Readiness r) {
        boolean all = true;
        for (Link l : links) {
            all &= l.setReadiness(r);
        }
        readiness = r;
        return all;
    }

    /** Serves the bus on {@code link} (its peer events come here). */
    public void attach(Link link) {
        links.add(link);
        link.setPeerListener(this);
    }

    /**
     * Makes the bus connections a door to the host's node too: {@code door} is the in-process link
     * whose other side the node serves on its own thread ({@link #nodeDoorLink}). Set before the
     * server runs; without it a frame not addressed to {@code /$bus} is refused as ever.
     */
    public void nodeDoor(InProcessLink door) {
        this.door = door;
    }

    /** Frames passed to the host's node through the door. */
    public long framesRelayed() {
        return framesRelayed;
    }

    /** Frames for the node that the door refused (its queue full, the frame too large, the node gone). */
    public long relaysRefused() {
        return relaysRefused;
    }

    /** Frames the node sent through the door that went back on bus connections. */
    public long framesFromNode() {
        return framesFromNode;
    }

    /** The bus this server feeds; call it only on the server's thread (the bus is single-threaded). */
    public HostBus bus() {
        return bus;
    }

    /** Frames that were not bus requests, or came from a connection the bus refused. */
    public long framesRefused() {
        return framesRefused;
    }

    /**
     * Pull mode (the bus tests): {@link #doWork} answers requests but sends a connection's
     * messages only when {@link #pumpOne} asks, one at a time, as a direct caller of
     * {@link BusConnection#poll} gets them.
     */
    public void pullOnly(boolean on) {
        pullOnly = on;
    }

    /** The connection of {@code clientId}, or null. */
    public BusConnection connectionOf(String clientId) {
        Conn c = connOf(clientId);
        return c == null ? null : c.bus;
    }

    private Conn connOf(String clientId) {
        for (Conn c : conns.values()) {
            if (c.bus != null && c.bus.identity().clientId().equals(clientId)) {
                return c;
            }
        }
        return null;
    }

    /** Sends {@code clientId} at most one waiting message; false when there was none. */
    public boolean pumpOne(String clientId) {
        Conn c = connOf(clientId);
        return c != null && pump(c, 1) > 0;
    }

    /** Reads every link, runs what arrived, and sends what the bus has for each connection. */
    public int doWork() {
        int work = 0;
        for (Link l : links) {
            work += l.poll(this, FRAMES_PER_POLL);
        }
        work += finishSeals();
        work += admitWaiting();
        work += expireIdle();
        bus.tick();
        for (Iterator<Conn> it = conns.values().iterator(); it.hasNext();) {
            Conn c = it.next();
            if (!pullOnly) {
                work += pump(c, MESSAGES_PER_TURN);
            }
            work += pumpNode(c, NODE_FRAMES_PER_TURN);
            // a closed connection goes once its last notices are out (in pull mode, once they were
            // asked for) and its seal, if one runs, is answered
            if (c.bus != null && !c.bus.isOpen() && c.held == null && !c.bus.hasOutbound() && c.sealing == null) {
                it.remove();
                closeNode(c);
                c.link.disconnect(c.peer);
            }
        }
        return work;
    }

    /**
     * Closes the connections that sent nothing for {@link BusLimits#idleTimeoutMillis()}: an open
     * bus connection gets {@code connection.closing{IDLE_TIMEOUT}} (then goes as any closed one), a
     * peer that never sent a request is disconnected from its link at once. A connection whose seal
     * runs is waiting for the bus, not idle.
     */
    private int expireIdle() {
        long timeout = bus.limits().idleTimeoutMillis() * 1_000_000L;
        if (timeout <= 0 || conns.isEmpty()) {
            return 0;
        }
        long now = bus.clock().nanoTime();
        int n = 0;
        for (Iterator<Conn> it = conns.values().iterator(); it.hasNext();) {
            Conn c = it.next();
            if (c.sealing != null || now - c.heardAt < timeout) {
                continue;
            }
            if (c.bus == null) {
                it.remove();
                c.link.disconnect(c.peer);
                n++;
            } else if (c.bus.isOpen()) {
                bus.close(c.bus, BusError.IDLE_TIMEOUT, "nothing sent for " + bus.limits().idleTimeoutMillis()
                        + " ms (a client sends bus.ping to stay)");
                n++;
            }
        }
        return n;
    }

    private static long key(Link l, int peer) {
        return (long) l.id() << 32 | (peer & 0xFFFFFFFFL);
    }

    @Override
    public void onPeerUp(Link link, int peer) {
        conn(link, peer);
    }

    /**
     * The connection of the peer's current holder: one kept for an earlier holder of the same handle
     * (another generation) is closed first, so nothing an old holder had is reached through the handle.
     */
    private Conn conn(Link link, int peer) {
        long k = key(link, peer);
        long generation = link.peerGeneration(peer);
        Conn c = conns.get(k);
        if (c != null && c.generation != generation) {
            conns.remove(k);
            gone(c);
            c = null;
        }
        if (c == null) {
            c = new Conn(link, peer, generation, bus.clock().nanoTime());
            conns.put(k, c);
        }
        return c;
    }

    @Override
    public void onPeerDown(Link link, int peer) {
        Conn c = conns.remove(key(link, peer));
        if (c != null) {
            gone(c);
        }
    }

    private void gone(Conn c) {
        dropParked(c);
        closeNode(c);
        if (c.bus != null) {
            c.bus.close();
        }
    }

    /** Closes the connection's end of the node door: the node sees that peer go and reaps what it held. */
    private static void closeNode(Conn c) {
        if (c.node != null) {
            c.node.close();
            c.node = null;
        }
        c.nodeHeld = null;
    }

    private void dropParked(Conn c) {
        for (byte[] f : c.parked) {
            parkedBytes -= f.length;
        }
        c.parked.clear();
    }

    private byte[] unpark(Conn c) {
        byte[] f = c.parked.poll();
        if (f != null) {
            parkedBytes -= f.length;
        }
        return f;
    }

    /** Answers a request frame the bus will not run with {@code code} (a frame that is no request is only counted). */
    private void refuse(Conn c, byte[] buf, int off, int len, BusError code, String message) {
        framesRefused++;
        try {
            BusFrames.Decoded d = BusFrames.decode(buf, off, len);
            if (!d.isReply() && d.command() != null) {
                send(c, BusFrames.error(d, new BusException(code, message)), Lane.CONTROL);
            }
        } catch (BusException notARequest) {
            // counted above
        }
    }

    /** Stops the bus: every connection gets its closing notices, then the links close. */
    public void shutdown() {
        bus.shutdown();
        waiting.clear();
        for (Conn c : conns.values()) {
            pump(c, Integer.MAX_VALUE);
            closeNode(c);
        }
        conns.clear();
    }

    @Override
    public void onFrame(Link link, int peer, byte[] buf, int off, int len) {
        Conn c = conn(link, peer);
        c.heardAt = bus.clock().nanoTime();
        if (len > bus.limits().maxFrameBytes()) {
            refuse(c, buf, off, len, BusError.INVALID_ENVELOPE, "a frame of " + len + " bytes is over the bus's frame limit "
                    + bus.limits().maxFrameBytes() + " (maxEnvelopeBytes + " + BusLimits.REQUEST_HEADROOM + ")");
            return;
        }
        if (c.sealing != null || c.waitingSince >= 0) {
            park(c, buf, off, len);
            return;
        }
        handle(c, buf, off, len);
    }

    /**
     * Keeps a frame of a connection whose seal runs or whose name is not handed over yet; past the
     * bound the connection is closed (one not yet opened is disconnected, keeping nothing).
     */
    private void park(Conn c, byte[] buf, int off, int len) {
        if (c.parked.size() >= MAX_PARKED_FRAMES) {
            framesRefused++;
            dropParked(c);
            if (c.bus != null && c.bus.isOpen()) {
                bus.close(c.bus, BusError.BACKPRESSURE, "more than " + MAX_PARKED_FRAMES
                        + " requests while a seal runs");
            } else if (c.bus == null && conns.get(key(c.link, c.peer)) == c) {
                // a peer that floods before its name is free keeps nothing
                conns.remove(key(c.link, c.peer));
                c.link.disconnect(c.peer);
            }
            return;
        }
        if (parkedBytes + len > bus.limits().maxReceiveBytes()) {
            // the bus's receive budget is spent: this request is refused, those waiting stay
            refuse(c, buf, off, len, BusError.BACKPRESSURE, "the bus holds " + parkedBytes + " bytes of requests waiting "
                    + "for seals or a name (maxReceiveBytes " + bus.limits().maxReceiveBytes() + "): send it again after "
                    + (c.sealing != null ? "this seal" : "this connection's first answer"));
            return;
        }
        byte[] copy = new byte[len];
        System.arraycopy(buf, off, copy, 0, len);
        c.parked.add(copy);
        parkedBytes += len;
    }

    /**
     * Runs one request frame and answers it, unless it parks the connection on seal jobs, or, as its
     * first, waits for its name's holder to go ({@link #waitsForName}).
     */
    private void handle(Conn c, byte[] buf, int off, int len) {
        if (waitsForName(c)) {
            park(c, buf, off, len);
            return;
        }
        if (door != null && BusFrames.relayDst(buf, off, len) != null) {
            // a libtracer frame for the node, read once and never as a bus message; never the link's
            // hello, which opens nothing: the connection opens at its first request
            relay(c, buf, off, len);
            return;
        }
        BusFrames.Decoded d;
        try {
            d = BusFrames.decode(buf, off, len);
        } catch (BusException e) {
            framesRefused++;
            return;
        }
        if (d.isReply() || d.command() == null) {
            framesRefused++;
            return;
        }
        Seals seals = sealsMaybe(d.command()) ? Seals.deferring() : Seals.INLINE;
        byte[] reply;
        try {
            reply = BusFrames.result(d, run(c, d.command(), d.fields(), seals));
        } catch (BusException e) {
            reply = BusFrames.error(d, e);
        } catch (Seals.Deferred deferred) {
            List<SealJob> jobs;
            try {
                jobs = seals.begin(store);
            } catch (BusException refused) {
                // the store refused a job's checks: the command meets that refusal inline, as it always did
                reply = answer(c, d, Seals.INLINE);
                send(c, reply, Lane.CONTROL);
                return;
            }
            byte[] frame = new byte[len];
            System.arraycopy(buf, off, frame, 0, len);
            startSeals(new Parked(c, frame, seals), jobs);
            return;
        }
        send(c, reply, Lane.CONTROL);
        dropIfRefused(c);
    }

    /** A connection the bus would not open keeps nothing: no entry here, and the link's handle goes. */
    private void dropIfRefused(Conn c) {
        if (c.refused && c.bus == null && conns.get(key(c.link, c.peer)) == c) {
            conns.remove(key(c.link, c.peer));
            dropParked(c);
            c.link.disconnect(c.peer);
        }
    }

    /**
     * Passes a frame for the host's node through the connection's end of the door, opening the bus
     * connection (its client id) and the end at the first. Refused (the bus would not open the
     * connection, it is closing, the door has no free end, or the end refuses the frame: the node's
     * queue full, a frame over the door's limit, the node gone): a request is answered with the
     * typed ERROR reply a libtracer hop gives, anything else is counted only. Nothing is left behind.
     */
    private void relay(Conn c, byte[] buf, int off, int len) {
        int rc;
        try {
            BusConnection b = open(c);
            if (!b.isOpen()) {
                rc = WireError.TRANSPORT_DOWN;
            } else {
                if (c.node == null) {
                    InProcessLink.End e = door.connect(b.identity().clientId());
                    if (e.isOpen()) {
                        c.node = e;
                        if (readiness != null) {
                            e.setReadiness(readiness); // the node's answers wake the loop
                        }
                    }
                }
                rc = c.node == null ? WireError.FLOW_BACKPRESSURE : c.node.send(buf, off, len);
            }
        } catch (BusException e) {
            rc = e.code().tracerCode();
        }
        if (rc == WireError.OK) {
            framesRelayed++;
            return;
        }
        relaysRefused++;
        byte[] answer = relayRefusal(buf, off, len, rc);
        if (answer != null) {
            send(c, answer, Lane.CONTROL);
        }
        dropIfRefused(c);
    }

    /** The ERROR reply {@code code} to the FWD request in {@code buf}, or null when it wants none (a reply, no src). */
    private static byte[] relayRefusal(byte[] buf, int off, int len, int code) {
        TlvIndex idx = new TlvIndex(Math.max(64, len / 4 + 16), 16);
        FwdView fwd = new FwdView();
        if (new FrameDecoder().decode(buf, off, len, idx) != WireError.OK || fwd.wrap(idx, 0) != WireError.OK) {
            return null;
        }
        byte[] out = new byte[len + 64];
        TlvWriter w = new TlvWriter().wrap(out, 0, out.length);
        int n = FwdRewrite.errorReply(fwd, code, w);
        return n > 0 ? java.util.Arrays.copyOf(out, n) : null;
    }

    /**
     * Sends on {@code c} (TOPIC lane) what the node sent its end, up to {@code max} frames; a frame
     * the link has no room for waits, and the end is not polled meanwhile, so the node meets the
     * end's own bound (FLOW_BACKPRESSURE) rather than this side growing.
     */
    private int pumpNode(Conn c, int max) {
        if (c.node == null) {
            return 0;
        }
        int n = 0;
        if (c.nodeHeld != null) {
            if (!trySend(c, c.nodeHeld, Lane.TOPIC)) {
                return 0;
            }
            c.nodeHeld = null;
            n++;
        }
        byte[] f;
        while (n < max && (f = c.node.poll()) != null) {
            framesFromNode++;
            n++;
            if (!trySend(c, f, Lane.TOPIC)) {
                c.nodeHeld = f;
                break;
            }
        }
        return n;
    }

    /** The commands that may seal: {@code artifact.seal}, and those that carry attachments. */
    private static boolean sealsMaybe(String command) {
        return switch (command) {
            case "artifact.seal", "publish", "rpc.call", "rpc.reply" -> true;
            default -> false;
        };
    }

    /** Runs the command with {@code seals} and encodes its answer; jobs it did not take are rolled back. */
    private byte[] answer(Conn c, BusFrames.Decoded d, Seals seals) {
        try {
            return BusFrames.result(d, run(c, d.command(), d.fields(), seals));
        } catch (BusException e) {
            return BusFrames.error(d, e);
        } finally {
            seals.close(store);
        }
    }

    private void startSeals(Parked p, List<SealJob> jobs) {
        p.conn.sealing = p;
        p.running = jobs.size();
        for (SealJob j : jobs) {
            Runnable r = () -> {
                try {
                    j.run();
                } finally {
                    sealsDone.add(p);
                    Readiness loop = readiness;
                    if (loop != null) {
                        loop.wake(); // the loop that runs this server may be blocked waiting for input
                    }
                }
            };
            try {
                sealer.execute(r);
            } catch (RejectedExecutionException e) {
                r.run();
            }
        }
    }

    /** Answers the commands whose seal jobs have all run, then runs their connections' parked frames. */
    private int finishSeals() {
        int n = 0;
        for (Parked p; (p = sealsDone.poll()) != null; ) {
            if (--p.running > 0) {
                continue;
            }
            n++;
            Conn c = p.conn;
            c.sealing = null;
            BusFrames.Decoded d;
            try {
                d = BusFrames.decode(p.frame, 0, p.frame.length);
            } catch (BusException e) {
                throw new IllegalStateException("a parked frame no longer decodes", e);
            }
            byte[] reply = answer(c, d, p.seals);
            if (conns.get(key(c.link, c.peer)) != c) {
                dropParked(c);
                continue;
            }
            send(c, reply, Lane.CONTROL);
            while (c.sealing == null && !c.parked.isEmpty()) {
                byte[] f = unpark(c);
                handle(c, f, 0, f.length);
            }
        }
        return n;
    }

    /** The client id {@code c} asks for: the name its peer gave the link, or null (anonymous). */
    private static String requestedId(Conn c) {
        String name = c.link.peerName(c.peer);
        return name == null || name.isEmpty() ? null : name;
    }

    /**
     * Whether {@code c}, not yet opened, must wait for the open connection that holds its name: false
     * when nothing here holds it (the bus decides), when the holder's link knows its peer is gone (the
     * holder is ended here and now, as its down would), once its wait is over, or past
     * {@link #NAME_HANDOVER_MILLIS} (then the bus refuses CONFLICT). The first true starts the wait.
     */
    private boolean waitsForName(Conn c) {
        if (c.bus != null || c.refused || c.waited) {
            return false;
        }
        String id = requestedId(c);
        if (id == null) {
            return false;
        }
        Conn holder = null;
        for (Conn h : conns.values()) {
            if (h != c && h.bus != null && h.bus.isOpen() && !h.bus.identity().anonymous()
                    && h.bus.identity().clientId().equals(id)) {
                holder = h;
                break;
            }
        }
        if (holder == null) {
            return false;
        }
        if (holder.link.isPeerGone(holder.peer)) {
            conns.remove(key(holder.link, holder.peer));
            gone(holder);
            return false;
        }
        long now = bus.clock().nanoTime();
        if (c.waitingSince < 0) {
            c.waitingSince = now;
            waiting.add(c);
            return true;
        }
        return now - c.waitingSince < NAME_HANDOVER_MILLIS * 1_000_000L;
    }

    /** Ends the waits that are over (the name's holder gone, or the wait's time up) and runs their frames. */
    private int admitWaiting() {
        int n = 0;
        for (Iterator<Conn> it = waiting.iterator(); it.hasNext();) {
            Conn c = it.next();
            if (conns.get(key(c.link, c.peer)) != c) {
                it.remove(); // gone while it waited: gone() dropped its frames
                continue;
            }
            if (waitsForName(c)) {
                continue;
            }
            it.remove();
            c.waitingSince = -1;
            c.waited = true;
            n++;
            while (c.sealing == null && !c.parked.isEmpty() && conns.get(key(c.link, c.peer)) == c) {
                byte[] f = unpark(c);
                handle(c, f, 0, f.length);
            }
        }
        return n;
    }

    private BusConnection open(Conn c) throws BusException {
        if (c.bus == null) {
            String id = requestedId(c);
            try {
                c.bus = bus.connect(id, grants.apply(id));
            } catch (BusException | RuntimeException e) {
                c.refused = true;
                throw e;
            }
        }
        return c.bus;
    }

    private BusFields run(Conn c, String command, BusFields f, Seals seals) throws BusException {
        BusConnection b = open(c);
        if (!b.isOpen()) {
            throw new BusException(BusError.ROUTER_LOST, "this connection is closing");
        }
        switch (command) {
            case "bus.hello": {
                f.allowOnly();
                ClientIdentity id = b.identity();
                return BusFields.of().put("clientId", id.clientId()).put("clientIncarnation", id.incarnation())
                        .put("anonymous", id.anonymous()).put("storeRoot", storeRoot).put("storeId", storeId)
                        .put("idleTimeoutMs", bus.limits().idleTimeoutMillis());
            }
            case "bus.ping":
                f.allowOnly();
                return BusFields.of();
            case "topic.declare": {
                f.allowOnly("name", "retained");
                Retention r = Retention.byWireName(f.string("retained"));
                if (r == null) {
                    throw new BusException(BusError.INVALID_ENVELOPE, "retained is none or latest");
                }
                Replies.Declared d = b.declare(f.string("name"), r);
                return BusFields.of().put("declared", d.declared()).put("topicIncarnation", d.topicIncarnation());
            }
            case "topic.clear":
                f.allowOnly("name");
                return BusFields.of().put("cleared", b.clear(f.string("name")));
            case "topic.delete":
                f.allowOnly("name");
                return BusFields.of().put("deleted", b.delete(f.string("name")));
            case "subscribe": {
                f.allowOnly("topic", "mode", "maxQueued", "maxInFlight", "replayLatest");
                SubscriptionMode m = SubscriptionMode.byWireName(f.string("mode"));
                if (m == null) {
                    throw new BusException(BusError.INVALID_ENVELOPE, "mode is latest or bounded");
                }
                Replies.Subscribed s = b.subscribe(f.string("topic"), m, count(f, "maxQueued"), count(f, "maxInFlight"),
                        f.bool("replayLatest", false));
                return BusFields.of().put("subscriptionId", s.subscriptionId()).put("topicIncarnation", s.topicIncarnation());
            }
            case "unsubscribe":
                f.allowOnly("subscriptionId");
                return BusFields.of().put("removed", b.unsubscribe(f.string("subscriptionId")));
            case "publish": {
                f.allowOnly("topic", "payload", "attachments", "retain");
                Replies.Published p = b.publish(f.string("topic"), f.bytes("payload"), BusWire.attachments(f),
                        f.bool("retain", true), seals);
                return BusFields.of().put("topicSequence", p.topicSequence()).put("subscribers", p.subscribers())
                        .put("replaced", p.replaced());
            }
            case "delivery.consumed":
                f.allowOnly("deliveryIds");
                return BusFields.of().put("released", b.consumed(f.strings("deliveryIds")));
            case "artifact.allocate": {
                f.allowOnly("byteLength", "contentType");
                Replies.Allocated a = b.allocate(f.u64("byteLength"), f.string("contentType"));
                return BusFields.of().put("artifactId", a.staged().artifactId()).put("generation", a.staged().generation())
                        .put("ownerId", a.ownerId()).put("writeLocation", a.staged().writeLocation());
            }
            case "artifact.seal": {
                f.allowOnly("artifactId", "generation", "ownerId", "digest");
                Replies.Sealed s = b.seal(f.u64("artifactId"), f.u64("generation"), f.string("ownerId"),
                        f.string("digest", null), seals);
                return BusFields.of().putRecord("ref", BusWire.ref(s.ref())).put("ownerId", s.ownerId());
            }
            case "artifact.open":
                f.allowOnly("ref", "ownerId");
                return BusFields.of().put("readLocation", b.open(BusWire.ref(f.record("ref")), f.string("ownerId")));
            case "artifact.retain":
                f.allowOnly("ref", "ownerId");
                return BusFields.of().put("ownerId", b.retain(BusWire.ref(f.record("ref")), f.string("ownerId")));
            case "artifact.release":
                f.allowOnly("ownerIds");
                return BusFields.of().put("released", b.release(f.strings("ownerIds")));
            case "service.register":
                f.allowOnly("name", "maxQueued", "maxInFlight");
                return BusFields.of().put("serviceIncarnation",
                        b.register(f.string("name"), count(f, "maxQueued"), count(f, "maxInFlight")).serviceIncarnation());
            case "service.unregister":
                f.allowOnly("name", "serviceIncarnation");
                return BusFields.of().put("removed", b.unregister(f.string("name"), f.string("serviceIncarnation")));
            case "rpc.call": {
                f.allowOnly("callId", "target", "expectedIncarnation", "method", "payload", "attachments");
                Replies.CallAccepted a = b.call(f.string("callId"), f.string("target"), f.string("expectedIncarnation", null),
                        f.string("method"), f.bytes("payload"), BusWire.attachments(f), seals);
                return BusFields.of().put("accepted", a.accepted()).put("serviceIncarnation", a.serviceIncarnation());
            }
            case "rpc.reply":
                f.allowOnly("callId", "requestDeliveryId", "outcome", "attachments");
                return BusFields.of().put("routed", b.reply(f.string("callId"), f.string("requestDeliveryId"),
                        f.bytes("outcome"), BusWire.attachments(f), seals));
            case "rpc.responder.release":
                f.allowOnly("callId", "requestDeliveryId");
                return BusFields.of().put("released", b.releaseResponder(f.string("callId"), f.string("requestDeliveryId")));
            case "rpc.cancel":
                f.allowOnly("callId");
                return BusFields.of().put("state", b.cancel(f.string("callId")).wireName());
            case "service.list": {
                f.allowOnly();
                List<BusFields> out = new ArrayList<>();
                for (HostBus.ServiceInfo i : bus.services()) {
                    out.add(BusFields.of().put("name", i.name()).put("serviceIncarnation", i.serviceIncarnation())
                            .put("holder", i.holder()).put("queued", i.queued()).put("inFlight", i.inFlight()));
                }
                return fitted("services", out);
            }
            case "artifact.list": {
                f.allowOnly();
                List<BusFields> out = new ArrayList<>();
                for (HostBus.ArtifactInfo i : bus.artifacts()) {
                    out.add(BusFields.of().putRecord("ref", BusWire.ref(i.ref())).put("contentType", i.contentType())
                            .put("roots", i.roots()).putStrings("retainedBy", i.retainedBy()));
                }
                return fitted("artifacts", out);
            }
            case "bus.stats":
                f.allowOnly();
                return BusWire.stats(bus.stats());
            default:
                throw new BusException(BusError.INVALID_ENVELOPE, "no bus command '" + command + "'");
        }
    }

    /**
     * A list reply that fits the envelope limit (so its frame fits the frame limit): the first
     * records that fit, and {@code truncated: true} when some were left out.
     */
    private BusFields fitted(String key, List<BusFields> records) {
        int limit = bus.limits().maxEnvelopeBytes();
        if (listSize(key, records, records.size()) <= limit) {
            return BusFields.of().putRecords(key, records);
        }
        int lo = 0;
        int hi = records.size() - 1;
        while (lo < hi) { // the most records that fit with the truncated flag
            int mid = (lo + hi + 1) >>> 1;
            if (listSize(key, records, mid) <= limit) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return BusFields.of().putRecords(key, records.subList(0, lo)).put("truncated", true);
    }

    private static long listSize(String key, List<BusFields> records, int n) {
        BusFields f = BusFields.of().putRecords(key, records.subList(0, n));
        if (n < records.size()) {
            f.put("truncated", true);
        }
        return BusFrames.eventSize(key, f);
    }

    private static int count(BusFields f, String key) throws BusException {
        long v = f.u64(key);
        if (v < 0 || v > Integer.MAX_VALUE) {
            throw new BusException(BusError.INVALID_ENVELOPE, key + " is out of range");
        }
        return (int) v;
    }

    /** Sends what the bus has for {@code c}, in the bus's lane order, until the link has no room. */
    private int pump(Conn c, int max) {
        int n = 0;
        if (c.held != null) {
            if (!trySend(c, c.held, c.heldLane)) {
                return 0;
            }
            c.held = null;
            n++;
        }
        if (c.bus == null) {
            return n;
        }
        BusMessage m;
        while (n < max && (m = c.bus.poll()) != null) {
            Lane lane = m.lane();
            byte[] frame = encode(m);
            n++;
            if (!trySend(c, frame, lane)) {
                c.held = frame;
                c.heldLane = lane;
                break;
            }
        }
        return n;
    }

    private void send(Conn c, byte[] frame, Lane lane) {
        if (c.held == null && trySend(c, frame, lane)) {
            return;
        }
        // a reply behind a held message: keep the order; the control lane's own bound closes a stuck peer
        framesRefused += c.link.send(c.peer, frame, 0, frame.length, lane) == WireError.OK ? 0 : 1;
    }

    private static boolean trySend(Conn c, byte[] frame, Lane lane) {
        int rc = c.link.send(c.peer, frame, 0, frame.length, lane);
        return rc != WireError.FLOW_BACKPRESSURE;
    }

    private byte[] encode(BusMessage m) {
        return BusFrames.event(BusWire.kind(m), BusWire.fields(m, this::locate));
    }

    /** Where a recipient maps a delivered artifact, or null when the store no longer has it. */
    private String locate(ArtifactRef ref) {
        try {
            return store.readLocation(ref.artifactId());
        } catch (BusException e) {
            return null;
        }
    }

}
