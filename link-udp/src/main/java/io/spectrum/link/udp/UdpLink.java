package io.spectrum.link.udp;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.FrameShape;
import io.spectrum.link.FrameSink;
import io.spectrum.link.LivenessProbe;
import io.spectrum.link.Link;
import io.spectrum.link.LinkCounters;
import io.spectrum.link.LinkStats;
import io.spectrum.link.PeerLiveness;
import io.spectrum.link.PeerListener;
import io.spectrum.link.Readiness;
import io.spectrum.link.ReceivesInto;
import io.spectrum.link.udp.mmsg.MmsgSocket;
import io.spectrum.stats.BoundedResource;
import io.spectrum.stats.ResourceCounter;
import io.spectrum.time.Clock;
import io.spectrum.wire.WireError;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

/**
 * The libtracer UDP binding: one datagram is one frame, no framing bytes, the datagram size is the
 * hard frame limit.
 *
 * <p>Two shapes share this class:
 * <ul>
 *   <li><b>listener</b> ({@code --udp HOST:PORT}): binds, learns peers from their datagrams into a
 *       fixed peer table (peer handle = slot index), answers them on the same socket. Sends to a
 *       handle it does not know answer {@link WireError#TRANSPORT_DOWN}. A full table gives the new
 *       sender the place of the longest-silent down peer, or refuses it; one source IP holds at most
 *       {@link UdpLinkConfig#peersPerHost} entries (refusals and evictions are counted in
 *       {@link #stats()} and {@link #peerTable()}).</li>
 *   <li><b>dialer</b> ({@code --peer HOST:PORT}): a channel connected to one peer (handle 0), so
 *       {@code read}/{@code write} carry no address at all. It may send before it has heard anything:
 *       somebody has to speak first.</li>
 * </ul>
 *
 * <p>Liveness: the first datagram from a new or returning peer reports {@code onPeerUp}; a peer silent
 * for {@code pingInterval} is handed to the {@link LivenessProbe} (the node sends it a FWD READ of
 * {@code $node/caps}); silent for {@code peerTimeout} it is reported {@code onPeerDown}. A dialer
 * keeps probing its peer while it is down (every ping interval), so a restarted listener hears from
 * it and answers, which brings the peer back up. A listener
 * keeps a down peer's slot (so a returning peer gets its old handle back) until the slot is needed
 * for a new sender.
 *
 * <p>Allocation: the dialer's path allocates nothing per frame ({@code read}/{@code write} on a
 * connected channel with direct buffers). The listener uses {@code receive}, which in JDK 17 hands
 * back a cached {@code InetSocketAddress} while datagrams keep coming from the same sender, so a
 * single-peer listener allocates nothing either; with several peers interleaving, each change of
 * sender costs the JDK one address object (about 100 bytes). Found peers are matched by reference
 * first, then by {@code equals} over the table. {@code send} to a learned peer allocates nothing.
 *
 * <p>Batched I/O (Linux, 64-bit, JNA on the class path; {@link UdpLinkConfig#batch}): a poll that
 * finds its batch drained makes one {@code recvmmsg} that fills up to a batch of preallocated native
 * slots, and hands them out one by one on this and the following polls without another system call;
 * senders are matched against the peer table by a primitive address key, so no address object is
 * made per datagram. Once the driver calls {@link #flush()} (the node loop does, once per step),
 * sends are queued (one batch at most; a full queue is flushed first) and leave with one {@code
 * sendmmsg} at the flush; a driver that never flushes sends each frame at once, as before. A frame
 * the kernel refuses at the flush is counted in {@code sendRefused}. Where batched I/O is not
 * available, or the config turns it off, the link uses the channel's {@code receive}/{@code send}
 * ({@link #batchedIo()}, {@link #batchUnavailableReason()}). See docs/links.md, "Batched datagram I/O".
 *
 * <p>Threading: one thread drives a link ({@code poll} and {@code send}), as everywhere on the
 * NARROW side; {@link #stats()} and the {@link #peerTable()} counters may be read from any thread.
 */
public final class UdpLink implements Link, ReceivesInto {
    private final int id;
    private final String name;
    private final DatagramChannel channel;
    private final boolean dialer;
    private final Clock clock;
    private final int maxFrame;
    private final long livenessPeriod;

    /** Direct so that the JDK copies straight to and from the socket without a temporary buffer. */
    private final ByteBuffer rx;
    private final ByteBuffer tx;
    private final byte[] rxArray;

    private final SocketAddress[] peerAddr;
    /** Up/heard/probe state per peer slot; a dialer keeps probing its down peer, a listener waits. */
    private final PeerLiveness liveness;
    private final long[] everUp;
    /** The peer table in the BoundedResource vocabulary (readable from any thread). */
    private final ResourceCounter peerTable;
    /** Peer-table entries one source IP may hold ({@link UdpLinkConfig#peersPerHost}). */
    private final int peersPerHost;
    private final boolean limitLoopback;
    private final int receiveBufferRequested;
    private final int receiveBufferGranted;

    private SocketAddress lastFrom;
    private SocketAddress lastReceived;
    private int lastFromSlot = -1;
    private long nextLivenessCheck;

    private final LinkCounters stats = new LinkCounters();
    private volatile boolean closed;

    /** Batched I/O on the channel's descriptor, or null when the link uses the channel itself. */
    private final MmsgSocket mmsg;
    /** Datagrams of the last receive batch, and the next one to hand out. */
    private int rxCount;
    private int rxNext;
    /** True once the driver called {@link #flush()}: from then on sends are queued until the next flush. */
    private boolean deferSends;
    /** Per peer slot, the address key of {@link MmsgSocket} (set when the slot's address is). */
    private final long[] keyHi;
    private final long[] keyLo;
    private final int[] keyPort;
    private final int[] keyScope;

    private UdpLink(int id, String name, DatagramChannel channel, boolean dialer, int peers,
                    UdpLinkConfig config, Clock clock) {
        this.id = id;
        this.name = name;
        this.channel = channel;
        this.dialer = dialer;
        this.clock = clock;
        this.maxFrame = config.maxFrame;
        this.livenessPeriod = Math.max(1, Math.min(config.peerTimeoutNanos, config.pingIntervalNanos) / 4);
        // One byte more than the limit, so an oversize datagram shows up as "too long" and not as a
        // silently truncated frame.
        int rxCap = Math.min(maxFrame + 1, UdpLinkConfig.MAX_DATAGRAM + 1);
        this.rx = ByteBuffer.allocateDirect(rxCap);
        this.rxArray = new byte[rxCap];
        this.tx = ByteBuffer.allocateDirect(maxFrame);
        this.peerAddr = new SocketAddress[peers];
        this.peerTable = new ResourceCounter(name + " peers", peers);
        this.peersPerHost = dialer ? peers : config.peersPerHost();
        this.limitLoopback = config.limitLoopbackPeers;
        this.receiveBufferRequested = config.receiveBufferBytes;
        this.receiveBufferGranted = grantedReceiveBuffer(channel);
        this.everUp = new long[peers];
        this.nextLivenessCheck = clock.nanoTime();
        this.liveness = new PeerLiveness(this, peers, config.peerTimeoutNanos, config.pingIntervalNanos, dialer,
                clock.nanoTime());
        this.keyHi = new long[peers];
        this.keyLo = new long[peers];
        this.keyPort = new int[peers];
        this.keyScope = new int[peers];
        this.mmsg = config.batch > 0 ? attachBatched(channel, config.batch, rxCap, maxFrame) : null;
        if (mmsg != null && config.segmentRun > 1 && config.segmentRun <= config.batch) {
            mmsg.segmentRuns(config.segmentRun);
        }
    }

    /** Why batched I/O is off for links of this process, or null while it is available: set by the first refusal. */
    private static volatile String batchUnavailable;

    /** Batched I/O on {@code channel}, or null (the reason kept once for {@link #batchUnavailableReason()}). */
    private static MmsgSocket attachBatched(DatagramChannel channel, int batch, int rxBytes, int txBytes) {
        try {
            return MmsgSocket.attach(channel, batch, rxBytes, txBytes);
        } catch (IOException | RuntimeException e) {
            noteUnavailable(e.getMessage());
        } catch (LinkageError e) {
            noteUnavailable("JNA is not on the class path (" + e + ")");
        }
        return null;
    }

    private static void noteUnavailable(String why) {
        if (batchUnavailable == null) {
            batchUnavailable = why;
        }
    }

    /**
     * Why a link of this process fell back to one system call per datagram although its config asked
     * for batched I/O (the first such reason), or null when none did. The node process prints it once
     * at start ({@code LinkNotices}).
     */
    public static String batchUnavailableReason() {
        return batchUnavailable;
    }

    /** True when this link receives and sends through {@code recvmmsg}/{@code sendmmsg}. */
    public boolean batchedIo() {
        return mmsg != null;
    }

    /**
     * The shortest run this link sends segmented ({@link UdpLinkConfig#segmentRun}); 0 when off: not
     * asked for, the channel path, or a kernel without {@code UDP_SEGMENT}.
     */
    public int segmentRun() {
        MmsgSocket m = mmsg;
        return m == null ? 0 : m.segmentRuns();
    }

    /** Segmented sends this link made, each a run of datagrams to one peer ({@link UdpLinkConfig#segmentRun}). */
    public long segmentedSends() {
        MmsgSocket m = mmsg;
        return m == null ? 0 : m.segmentedSends();
    }

    /** Datagrams this link receives or sends per system call on the batched path; 0 on the channel path. */
    public int batch() {
        MmsgSocket m = mmsg;
        return m == null ? 0 : m.batch();
    }

    /**
     * The {@code recvmmsg} and {@code sendmmsg} calls this link made (0 on the channel path): with
     * {@link LinkStats#framesIn} and {@link LinkStats#framesOut} it shows how many datagrams a call carried.
     */
    public long batchCalls() {
        MmsgSocket m = mmsg;
        return m == null ? 0 : m.calls();
    }

    /** A listener bound to {@code bind} ({@code --udp HOST:PORT}). */
    public static UdpLink listen(int id, InetSocketAddress bind, UdpLinkConfig config, Clock clock)
            throws IOException {
        DatagramChannel ch = openBound(config, bind);
        InetSocketAddress local = (InetSocketAddress) ch.getLocalAddress();
        return new UdpLink(id, "udp " + hostPort(local), ch, false, config.peerCapacity, config, clock);
    }

    /** A listener's socket ({@link #open}) bound to {@code bind}; a taken port says so in one line. */
    public static DatagramChannel openBound(UdpLinkConfig config, InetSocketAddress bind) throws IOException {
        DatagramChannel ch = open(config, bind.getAddress());
        try {
            ch.bind(bind);
        } catch (java.net.BindException e) {
            ch.close();
            throw new java.net.BindException("cannot listen on " + hostPort(bind) + ": " + e.getMessage()
                    + " (is another board or host already there? pick another port)");
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        return ch;
    }

    /** A dialer connected to {@code peer} ({@code --peer HOST:PORT}); the peer is handle 0. */
    public static UdpLink dial(int id, InetSocketAddress peer, UdpLinkConfig config, Clock clock)
            throws IOException {
        DatagramChannel ch = openConnected(config, peer);
        UdpLink link = new UdpLink(id, "udp->" + hostPort(peer), ch, true, 1, config, clock);
        link.peerAddr[0] = peer;
        link.peerTable.taken();
        return link;
    }

    /** A dialer's socket ({@link #open}) on an ephemeral port, connected to {@code peer}. */
    public static DatagramChannel openConnected(UdpLinkConfig config, InetSocketAddress peer) throws IOException {
        DatagramChannel ch = open(config, peer.getAddress());
        try {
            ch.bind(new InetSocketAddress(peer.getAddress().isLoopbackAddress()
                    ? peer.getAddress() : null, 0));
            ch.connect(peer);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        return ch;
    }

    /**
     * A non-blocking IPv4 socket, or IPv6 for an IPv6 address ({@code [::1]:7700}), with the
     * config's buffer sizes; the DTLS link opens its socket here too.
     */
    public static DatagramChannel open(UdpLinkConfig config, java.net.InetAddress address) throws IOException {
        DatagramChannel ch = DatagramChannel.open(address instanceof java.net.Inet6Address
                ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET);
        try {
            ch.configureBlocking(false);
            if (config.receiveBufferBytes > 0) {
                ch.setOption(StandardSocketOptions.SO_RCVBUF, config.receiveBufferBytes);
            }
            if (config.socketBufferBytes > 0) {
                ch.setOption(StandardSocketOptions.SO_SNDBUF, config.socketBufferBytes);
            }
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        return ch;
    }

    private static int grantedReceiveBuffer(DatagramChannel ch) {
        try {
            return ch.getOption(StandardSocketOptions.SO_RCVBUF);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The SO_RCVBUF size asked for (0: the OS default was kept). */
    public int receiveBufferRequested() {
        return receiveBufferRequested;
    }

    /**
     * The SO_RCVBUF size the OS reports for the socket, or -1 when it cannot be read. Linux reports
     * twice the usable size it granted (its bookkeeping overhead) and caps the request at
     * {@code net.core.rmem_max}.
     */
    public int receiveBufferGranted() {
        return receiveBufferGranted;
    }

    /**
     * True when the OS granted less receive buffer than was asked for (on Linux: the request was
     * capped at {@code net.core.rmem_max}); bursts beyond the granted size are dropped by the kernel
     * before the link sees them.
     */
    public boolean receiveBufferCapped() {
        return receiveBufferRequested > 0 && receiveBufferGranted >= 0 && receiveBufferGranted < receiveBufferRequested;
    }

    /** True when the link listens on a wildcard address (0.0.0.0, ::): every interface reaches it. */
    public boolean isWildcard() {
        InetSocketAddress a = localAddress();
        return !dialer && a != null && a.getAddress() != null && a.getAddress().isAnyLocalAddress();
    }

    /** {@code host:port}, an IPv6 host in brackets: how links name their addresses. */
    public static String hostPort(InetSocketAddress a) {
        String h = a.getHostString();
        return (h.indexOf(':') >= 0 ? "[" + h + "]" : h) + ":" + a.getPort();
    }

    /** The host a bare {@code :PORT} or {@code PORT} means: loopback, so nothing is exposed unless asked. */
    public static final String DEFAULT_HOST = "127.0.0.1";

    /**
     * Parses {@code HOST:PORT} (the {@code --udp} / {@code --peer} option value). A bare {@code :PORT}
     * or {@code PORT} means {@link #DEFAULT_HOST} (loopback): a link is only reachable from other
     * machines when a non-loopback host (or a wildcard, 0.0.0.0 / ::) is named.
     */
    public static InetSocketAddress parseHostPort(String hostPort) {
        if (!hostPort.isEmpty() && hostPort.chars().allMatch(Character::isDigit)) {
            hostPort = ":" + hostPort;
        }
        if (hostPort.startsWith(":") && hostPort.length() > 1 && hostPort.substring(1).chars().allMatch(Character::isDigit)) {
            hostPort = DEFAULT_HOST + hostPort;
        }
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0 || colon == hostPort.length() - 1) {
            throw new IllegalArgumentException("expected HOST:PORT, got '" + hostPort + "'");
        }
        int port;
        try {
            port = Integer.parseInt(hostPort.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad port in '" + hostPort + "'", e);
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port out of range in '" + hostPort + "'");
        }
        String host = hostPort.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1); // an IPv6 literal: [::1]:7700
        } else if (host.indexOf(':') >= 0) {
            throw new IllegalArgumentException("an IPv6 address goes in brackets: [" + host + "]:" + port);
        }
        if (host.isEmpty()) {
            throw new IllegalArgumentException("expected HOST:PORT, got '" + hostPort + "'");
        }
        InetSocketAddress a = new InetSocketAddress(host, port);
        if (a.isUnresolved()) {
            throw new IllegalArgumentException("cannot resolve host '" + host + "'");
        }
        return a;
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public String name() {
        return name;
    }

    /** The bound local address (useful after binding port 0). */
    public InetSocketAddress localAddress() {
        try {
            return (InetSocketAddress) channel.getLocalAddress();
        } catch (IOException e) {
            return null;
        }
    }

    /** The address of a known peer handle, or null. Allocation-free; for logs and tools. */
    public SocketAddress peerAddress(int peer) {
        return peer >= 0 && peer < peerAddr.length ? peerAddr[peer] : null;
    }

    /** True while the peer is considered alive (heard from within the timeout). */
    @Override
    public boolean isPeerUp(int peer) {
        return liveness.isUp(peer);
    }

    /**
     * Gone only when this link is closed: UDP keeps no connection, so a peer that stopped answering
     * (or whose port is unreachable) may come back on the same address; that is the liveness probe's
     * to report (peer down), not a gone channel.
     */
    @Override
    public boolean isPeerGone(int peer) {
        return closed;
    }

    /**
     * True for the dialer shape (a channel connected to one peer, handle 0); false for a listener.
     */
    public boolean isDialer() {
        return dialer;
    }

    @Override
    public int send(int peer, byte[] buf, int off, int len) {
        if (closed || peer < 0 || peer >= peerAddr.length) {
            stats.countSendRefused();
            return WireError.TRANSPORT_DOWN;
        }
        SocketAddress to = peerAddr[peer];
        if (to == null) {
            // A listener cannot talk to a peer before the peer has spoken (libtracer: a no-op).
            stats.countSendRefused();
            return WireError.TRANSPORT_DOWN;
        }
        if (len > maxFrame) {
            stats.countOversize();
            return WireError.FRAME_INVALID;
        }
        MmsgSocket m = mmsg;
        if (m != null && deferSends) {
            if (m.full()) {
                flushQueue(m);
            }
            m.queue(!dialer, keyHi[peer], keyLo[peer], keyPort[peer], keyScope[peer], buf, off, len);
            return WireError.OK;
        }
        ByteBuffer b = tx;
        b.clear();
        b.put(buf, off, len);
        b.flip();
        int n;
        try {
            n = dialer ? channel.write(b) : channel.send(b, to);
        } catch (IOException e) {
            // Dialer: an ICMP port-unreachable from an earlier datagram surfaces here.
            stats.countSendRefused();
            return WireError.TRANSPORT_DOWN;
        }
        if (n == 0) {
            stats.countSendRefused();
            return WireError.FLOW_BACKPRESSURE;
        }
        stats.countOut(len);
        return WireError.OK;
    }

    /**
     * Sends the frames queued since the last flush with one {@code sendmmsg} (or as few as the kernel
     * allows); frames it refuses are counted in {@code sendRefused}. The first call switches the link
     * to queueing its sends until the next flush, so a driver that calls it must call it once per
     * step (the node loop does). No-op on the channel path.
     */
    @Override
    public void flush() {
        MmsgSocket m = mmsg;
        if (m == null || closed) {
            return;
        }
        deferSends = true;
        if (m.queued() > 0) {
            flushQueue(m);
        }
    }

    private void flushQueue(MmsgSocket m) {
        int sent = m.flush();
        stats.countOut(sent, m.flushedBytes());
        stats.countSendRefused(m.flushFailed());
    }

    @Override
    public int poll(FrameHandler handler, int maxFrames) {
        return receive(handler, null, maxFrames);
    }

    /**
     * As {@link #poll}, each datagram copied once, from the socket's (or the batch's native) buffer
     * straight into the sink's buffer.
     */
    @Override
    public int pollInto(FrameSink sink, int maxFrames) {
        return receive(null, sink, maxFrames);
    }

    /** The receive of {@link #poll} (into this link's buffer, to {@code handler}) and {@link #pollInto} ({@code sink}). */
    private int receive(FrameHandler handler, FrameSink sink, int maxFrames) {
        if (closed) {
            return 0;
        }
        long now = clock.nanoTime();
        // This node was away (frozen, suspended) longer than the timeout: its peers have timed it
        // out and dropped what it held, so treat them as gone; whatever is queued brings them back
        // up, and the node re-establishes its subscriptions.
        liveness.polled(now);
        MmsgSocket m = mmsg;
        int delivered = m != null ? pollBatched(m, handler, sink, maxFrames, now) : pollChannel(handler, sink, maxFrames, now);
        if (now - nextLivenessCheck >= 0) {
            nextLivenessCheck = now + livenessPeriod;
            liveness.check(now);
        }
        return delivered;
    }

    /**
     * The batched receive: hands out what the last {@code recvmmsg} brought, and makes another call
     * only when that batch is drained, at most until a call brings less than a full batch (the
     * socket was empty then).
     */
    private int pollBatched(MmsgSocket m, FrameHandler handler, FrameSink sink, int maxFrames, long now) {
        if (m.queued() > 0) {
            flushQueue(m); // a driver that flushes once per step never leaves frames queued this long
        }
        int delivered = 0;
        boolean called = false;
        while (delivered < maxFrames) {
            if (rxNext >= rxCount) {
                if (called && rxCount < m.batch()) {
                    break;
                }
                rxNext = 0;
                rxCount = 0;
                int n = m.receive();
                called = true;
                if (n <= 0) {
                    break; // nothing waiting, or an error (an ICMP unreachable from an earlier send)
                }
                rxCount = n;
            }
            int i = rxNext++;
            int len = m.length(i);
            if (len > maxFrame) {
                stats.countOversize();
                continue;
            }
            byte[] dst = sink == null ? rxArray : sink.frameBuffer(len);
            m.copy(i, dst, len);
            if (!FrameShape.isOneFrame(dst, 0, len)) {
                stats.countInvalid();
                continue;
            }
            int slot = dialer ? 0 : slotFor(m, i);
            if (slot < 0) {
                continue;
            }
            heard(slot, now);
            stats.countIn(len);
            hand(handler, sink, slot, len);
            delivered++;
        }
        return delivered;
    }

    /**
     * The slot of received datagram {@code i}'s sender by its address key: the last sender's slot
     * first, then the table; only an unknown sender makes an address object and goes through the
     * learning rules of {@link #slotFor(SocketAddress)}.
     */
    private int slotFor(MmsgSocket m, int i) {
        long hi = m.senderHi(i);
        long lo = m.senderLo(i);
        int port = m.senderPort(i);
        int scope = m.senderScope(i);
        int last = lastFromSlot;
        if (last >= 0 && keyIs(last, hi, lo, port, scope)) {
            return last;
        }
        for (int s = 0; s < peerAddr.length; s++) {
            if (s != last && keyIs(s, hi, lo, port, scope)) {
                lastFrom = peerAddr[s];
                lastFromSlot = s;
                return s;
            }
        }
        int slot = slotFor(m.sender(i));
        if (slot >= 0) {
            keyHi[slot] = hi;
            keyLo[slot] = lo;
            keyPort[slot] = port;
            keyScope[slot] = scope;
        }
        return slot;
    }

    private boolean keyIs(int s, long hi, long lo, int port, int scope) {
        return peerAddr[s] != null && keyLo[s] == lo && keyHi[s] == hi && keyPort[s] == port && keyScope[s] == scope;
    }

    /** The channel receive: one system call per datagram. */
    private int pollChannel(FrameHandler handler, FrameSink sink, int maxFrames, long now) {
        int delivered = 0;
        while (delivered < maxFrames) {
            ByteBuffer b = rx;
            b.clear();
            int slot;
            try {
                if (dialer) {
                    int n = channel.read(b);
                    if (n <= 0) {
                        break;
                    }
                    slot = 0;
                } else {
                    SocketAddress from = channel.receive(b);
                    if (from == null) {
                        break;
                    }
                    slot = -1;
                    lastReceived = from;
                }
            } catch (IOException e) {
                // Port unreachable from an earlier send, or the channel closed under us: nothing to read.
                break;
            }
            int len = b.position();
            if (len > maxFrame) {
                stats.countOversize();
                continue;
            }
            b.flip();
            byte[] dst = sink == null ? rxArray : sink.frameBuffer(len);
            b.get(dst, 0, len);
            if (!FrameShape.isOneFrame(dst, 0, len)) {
                stats.countInvalid();
                continue;
            }
            // Only a well-shaped frame teaches the listener a peer, so noise cannot fill the table.
            if (slot < 0) {
                slot = slotFor(lastReceived);
                if (slot < 0) {
                    continue;
                }
            }
            heard(slot, now);
            stats.countIn(len);
            hand(handler, sink, slot, len);
            delivered++;
        }
        return delivered;
    }

    /** Hands the frame just received at {@code [0, len)} to the sink (in its buffer) or the handler (in {@link #rxArray}). */
    private void hand(FrameHandler handler, FrameSink sink, int slot, int len) {
        if (sink != null) {
            sink.onFrameIn(this, slot, len);
        } else {
            handler.onFrame(this, slot, rxArray, 0, len);
        }
    }

    /** Marks a slot heard; reports it up when it was down. Any datagram counts, even a bad one. */
    private void heard(int slot, long now) {
        if (!liveness.isUp(slot) && everUp[slot]++ > 0) {
            stats.countReconnect();
        }
        liveness.heard(slot, now);
    }

    /** Finds or learns the slot of a sender; -1 when the table is full (counted). */
    private int slotFor(SocketAddress from) {
        if (from == lastFrom) {
            return lastFromSlot;
        }
        SocketAddress[] addrs = peerAddr;
        java.net.InetAddress host = from instanceof InetSocketAddress ? ((InetSocketAddress) from).getAddress() : null;
        if (host != null && !limitLoopback && host.isLoopbackAddress()) {
            host = null; // exempt by configuration only: by default loopback has a share like any address
        }
        int free = -1;
        int oldestDown = -1;
        int sameHost = 0;
        int sameHostOldestDown = -1;
        for (int i = 0; i < addrs.length; i++) {
            SocketAddress a = addrs[i];
            if (a == null) {
                if (free < 0) {
                    free = i;
                }
                continue;
            }
            if (a.equals(from)) {
                addrs[i] = from;
                lastFrom = from;
                lastFromSlot = i;
                return i;
            }
            boolean down = !liveness.isUp(i);
            if (host != null && host.equals(((InetSocketAddress) a).getAddress())) {
                sameHost++;
                if (down && (sameHostOldestDown < 0 || liveness.lastHeard(i) - liveness.lastHeard(sameHostOldestDown) < 0)) {
                    sameHostOldestDown = i;
                }
            }
            if (down && (oldestDown < 0 || liveness.lastHeard(i) - liveness.lastHeard(oldestDown) < 0)) {
                oldestDown = i;
            }
        }
        // one host (any number of ports) holds at most its share of the table: past it, a new port
        // only takes the place of one of that host's own silent peers
        int slot = sameHost >= peersPerHost ? sameHostOldestDown : free >= 0 ? free : oldestDown;
        if (slot < 0) {
            peerTable.countRefused();
            stats.countPeerRefused();
            return -1;
        }
        if (addrs[slot] == null) {
            peerTable.taken();
        } else {
            stats.countPeerEvicted();
        }
        addrs[slot] = from;
        everUp[slot] = 0;
        lastFrom = from;
        lastFromSlot = slot;
        return slot;
    }

    @Override
    public int maxFrame() {
        return maxFrame;
    }

    /**
     * Reads the kernel's drop count for this socket (Linux: the {@code drops} column of
     * {@code /proc/net/udp} for the bound port: datagrams that found the receive buffer full) into
     * {@link LinkStats#droppedByOs}. Elsewhere, or when it cannot be read, the counter stays as it is.
     * Allocates (reads a file): the node loop calls it on its stats period, not per frame.
     */
    @Override
    public void refreshCounters() {
        InetSocketAddress local = localAddress();
        if (closed || local == null) {
            return;
        }
        long drops = kernelDrops(java.nio.file.Path.of("/proc/net/udp"), local.getPort());
        if (drops >= 0) {
            stats.setDroppedByOs(drops);
        }
    }

    /** The drops column of the {@code /proc/net/udp}-format table for local port {@code port}, or -1. */
    static long kernelDrops(java.nio.file.Path table, int port) {
        String hexPort = String.format(":%04X", port);
        try (java.io.BufferedReader r = java.nio.file.Files.newBufferedReader(table)) {
            r.readLine(); // header
            for (String line; (line = r.readLine()) != null; ) {
                String[] f = line.trim().split("\\s+");
                if (f.length >= 13 && f[1].endsWith(hexPort)) {
                    return Long.parseLong(f[12]);
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    @Override
    public void setPeerListener(PeerListener listener) {
        liveness.setListener(listener);
    }

    /** Registers the hook that pings a silent peer (wired by the node to a {@code $node/caps} READ). */
    @Override
    public void setLivenessProbe(LivenessProbe probe) {
        liveness.setProbe(probe);
    }

    /** Hands the (non-blocking) channel to the loop's selector: a datagram wakes the loop. */
    @Override
    public boolean setReadiness(Readiness readiness) {
        return !closed && readiness.watch(channel);
    }

    @Override
    public LinkStats stats() {
        return stats;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        MmsgSocket m = mmsg;
        if (m != null && m.queued() > 0) {
            flushQueue(m); // what the last step queued still leaves
        }
        closed = true;
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing left to release
        }
        liveness.allDown();
    }

    /** The peer table (capacity, slots in use, peak, refused senders); readable from any thread. */
    public BoundedResource peerTable() {
        return peerTable;
    }

    @Override
    public BoundedResource peers() {
        return peerTable;
    }
}
