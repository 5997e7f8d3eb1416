package io.spectrum.link.dtls;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.FrameShape;
import io.spectrum.link.LivenessProbe;
import io.spectrum.link.Link;
import io.spectrum.link.LinkCounters;
import io.spectrum.link.LinkStats;
import io.spectrum.link.PeerListener;
import io.spectrum.link.PeerLiveness;
import io.spectrum.link.Readiness;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.stats.BoundedResource;
import io.spectrum.stats.ResourceCounter;
import io.spectrum.time.Clock;
import io.spectrum.wire.WireError;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;

/**
 * The UDP link with DTLS 1.2 (the JDK's {@code SSLEngine}, {@code SSLContext.getInstance("DTLS")}):
 * every datagram is one DTLS record carrying one libtracer frame. A link is plain ({@link UdpLink})
 * or DTLS, never both: a plain v1 peer cannot talk to this one (its datagrams are not a
 * ClientHello and are dropped, counted in {@link DtlsStats#recordsDropped}).
 *
 * <p>Both ends show a certificate the fleet CA signed and did not revoke ({@link DtlsCredentials});
 * a peer without one, with another CA's, or with a revoked one gets nothing (no handle, no frame,
 * counted in {@link #dtlsStats()}). A peer handle stands for one certificate name: the listener
 * gives a name that comes back (a host restarted, from a new port) its old handle, and the node,
 * which only ever sees handles, keys the RFC-0035 holder gate and the per-peer shares on
 * (link id, handle) = the certificate's name, with no change in the node.
 *
 * <p>Threads: the link runs its own thread ({@link DtlsWorker}) for the socket, the handshakes and
 * the record crypto, which allocate in the JDK. The node's side ({@link #send}, {@link #poll})
 * only copies frames into and out of two rings of preallocated slots: 0 bytes per frame on the
 * node's thread. A peer is up from its accepted handshake (reported through {@link PeerListener});
 * the liveness rules (probe, timeout) are the UDP link's ({@link PeerLiveness}).
 *
 * <p>The largest frame is 16384 bytes (one DTLS record), less if the config says so.
 */
public final class DtlsLink implements Link {
    /** Frame slots in each direction between the node and the link's thread. */
    static final int RING_SLOTS = 64;

    private final int id;
    private final String name;
    private final DatagramChannel channel;
    private final boolean dialer;
    private final Clock clock;
    private final int maxFrame;
    private final long livenessPeriod;
    private final PeerLiveness liveness;
    private final ResourceCounter peerTable;
    private final LinkCounters stats = new LinkCounters();
    private final DtlsStats dtlsStats = new DtlsStats();
    private final FrameRing in;
    private final FrameRing out;
    private final DtlsWorker worker;
    private final Thread thread;
    private final DtlsCredentials credentials;
    /** Node side: handles whose handshake completed and that have not gone since. */
    private final boolean[] open;
    private long nextLivenessCheck;
    private volatile String lastRefusal;
    private volatile boolean closed;

    private DtlsLink(int id, String name, DatagramChannel channel, InetSocketAddress remote, int peers,
                     UdpLinkConfig config, DtlsCredentials credentials, Clock clock) throws IOException {
        this.id = id;
        this.name = name;
        this.channel = channel;
        this.dialer = remote != null;
        this.clock = clock;
        this.credentials = credentials;
        this.maxFrame = Math.min(config.maxFrame(), DtlsWorker.MAX_PLAINTEXT);
        this.livenessPeriod = Math.max(1, Math.min(config.peerTimeoutNanos(), config.pingIntervalNanos()) / 4);
        this.peerTable = new ResourceCounter(name + " peers", peers);
        this.liveness = new PeerLiveness(this, peers, config.peerTimeoutNanos(), config.pingIntervalNanos(), false,
                clock.nanoTime());
        this.open = new boolean[peers];
        this.in = new FrameRing(RING_SLOTS, Math.max(maxFrame, 1));
        this.out = new FrameRing(RING_SLOTS, Math.max(maxFrame, 1));
        this.nextLivenessCheck = clock.nanoTime();
        this.worker = new DtlsWorker(this, channel, credentials.context(), remote, peers, maxFrame,
                config.peerTimeoutNanos(), config.pingIntervalNanos(), clock, in, out, dtlsStats, stats, peerTable);
        if (dialer) {
            peerTable.taken();
        }
        this.thread = new Thread(worker, "dtls " + name);
        thread.setDaemon(true);
        thread.start();
    }

    /** A DTLS server bound to {@code bind} ({@code --udp HOST:PORT} with DTLS credentials). */
    public static DtlsLink listen(int id, InetSocketAddress bind, UdpLinkConfig config, DtlsCredentials credentials,
                                  Clock clock) throws IOException {
        DatagramChannel ch = UdpLink.openBound(config, bind);
        try {
            InetSocketAddress local = (InetSocketAddress) ch.getLocalAddress();
            return new DtlsLink(id, "dtls " + UdpLink.hostPort(local), ch, null, config.peerCapacity(), config,
                    credentials, clock);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /** A DTLS client of {@code peer} ({@code --peer HOST:PORT} with DTLS credentials); the peer is handle 0. */
    public static DtlsLink dial(int id, InetSocketAddress peer, UdpLinkConfig config, DtlsCredentials credentials,
                                Clock clock) throws IOException {
        DatagramChannel ch = UdpLink.openConnected(config, peer);
        try {
            return new DtlsLink(id, "dtls->" + UdpLink.hostPort(peer), ch, peer, 1, config, credentials, clock);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public String name() {
        return name;
    }

    /** True for the dialer shape (one peer, handle 0, the DTLS client); false for a listener. */
    public boolean isDialer() {
        return dialer;
    }

    /** This node's certificate name. */
    public String identity() {
        return credentials.name();
    }

    /** The bound local address. */
    public InetSocketAddress localAddress() {
        try {
            return (InetSocketAddress) channel.getLocalAddress();
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * The certificate name a handle stands for, or null before its first handshake. Read it on the
     * node's thread after the peer came up (the UP event orders it).
     */
    public String peerName(int peer) {
        return peer >= 0 && peer < open.length ? worker.slotName[peer] : null;
    }

    @Override
    public boolean isPeerUp(int peer) {
        return liveness.isUp(peer);
    }

    @Override
    public int send(int peer, byte[] buf, int off, int len) {
        if (closed || peer < 0 || peer >= open.length || !open[peer]) {
            stats.countSendRefused();
            return WireError.TRANSPORT_DOWN;
        }
        if (len > maxFrame) {
            stats.countOversize();
            return WireError.FRAME_INVALID;
        }
        int s = out.claim();
        if (s < 0) {
            stats.countSendRefused();
            return WireError.FLOW_BACKPRESSURE;
        }
        System.arraycopy(buf, off, out.data[s], 0, len);
        out.publish(s, FrameRing.FRAME, peer, len);
        worker.wake();
        stats.countOut(len);
        return WireError.OK;
    }

    @Override
    public int poll(FrameHandler handler, int maxFrames) {
        if (closed) {
            return 0;
        }
        long now = clock.nanoTime();
        liveness.polled(now);
        int delivered = 0;
        for (int s; delivered < maxFrames && (s = in.peek()) >= 0; in.release()) {
            int peer = in.peer[s];
            byte kind = in.kind[s];
            if (kind == FrameRing.UP) {
                open[peer] = true;
                liveness.heard(peer, now);
                continue;
            }
            if (kind == FrameRing.GONE) {
                open[peer] = false;
                liveness.down(peer);
                continue;
            }
            int len = in.length[s];
            byte[] data = in.data[s];
            if (!FrameShape.isOneFrame(data, 0, len)) {
                stats.countInvalid();
                continue;
            }
            liveness.heard(peer, now);
            stats.countIn(len);
            handler.onFrame(this, peer, data, 0, len);
            delivered++;
        }
        if (now - nextLivenessCheck >= 0) {
            nextLivenessCheck = now + livenessPeriod;
            liveness.check(now);
        }
        return delivered;
    }

    @Override
    public int maxFrame() {
        return maxFrame;
    }

    @Override
    public void setPeerListener(PeerListener listener) {
        liveness.setListener(listener);
    }

    @Override
    public void setLivenessProbe(LivenessProbe probe) {
        liveness.setProbe(probe);
    }

    /** Frames arrive on the link's thread, which wakes the loop ({@link Readiness#wake}) after each. */
    @Override
    public boolean setReadiness(Readiness readiness) {
        worker.readiness = readiness;
        return !closed;
    }

    @Override
    public LinkStats stats() {
        return stats;
    }

    /** The DTLS layer's counters: handshakes, resumptions, cookies, refusals by reason. */
    public DtlsStats dtlsStats() {
        return dtlsStats;
    }

    /** Why the last handshake failed (one line), or null; for the operator's log. */
    public String lastRefusal() {
        return lastRefusal;
    }

    /**
     * Bytes the link's own thread has allocated so far (the JDK's handshakes and record crypto), or
     * -1 where the JVM cannot tell; the node's thread allocates nothing per frame.
     */
    public long linkThreadAllocatedBytes() {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        if (mx instanceof com.sun.management.ThreadMXBean) {
            return ((com.sun.management.ThreadMXBean) mx).getThreadAllocatedBytes(thread.getId());
        }
        return -1;
    }

    @Override
    public BoundedResource peers() {
        return peerTable;
    }

    void refusal(Exception e) {
        lastRefusal = e.getMessage();
    }

    void workerDied(Exception e) {
        lastRefusal = "the link's thread stopped: " + e;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        worker.closed = true;
        worker.wake();
        try {
            thread.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing left to release
        }
        liveness.allDown();
    }
}
