package io.spectrum.link.local;

import io.spectrum.link.Lane;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.FrameShape;
import io.spectrum.link.Link;
import io.spectrum.link.LinkCounters;
import io.spectrum.link.LinkStats;
import io.spectrum.link.PeerHandles;
import io.spectrum.link.PeerListener;
import io.spectrum.link.Readiness;
import io.spectrum.stats.BoundedResource;
import io.spectrum.stats.ResourceCounter;
import io.spectrum.time.Clock;
import io.spectrum.wire.Utf8;
import io.spectrum.wire.WireError;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;

/**
 * The local stream link for host processes (docs/links.md, "Local stream link"): a Unix domain
 * socket, or TCP for a process on another host, carrying libtracer v1 frames each behind a u32
 * little-endian length prefix.
 *
 * <p><b>Server</b> ({@link #listen}): accepts up to {@link LocalLinkConfig#connectionCapacity}
 * connections; each gets a peer handle in {@code 0..handleSpace-1} with a generation
 * ({@link PeerHandles}): a handle is given again only after every other free one, and then with a
 * higher generation ({@link #peerGeneration}), so the link accepts connections for its whole life and
 * an RFC-0035 holder identity is never inherited by a later connection. A connection's first frame must be a
 * {@link LocalHello} within {@link LocalLinkConfig#helloTimeoutNanos} by the injected clock, else it
 * is closed and counted; the hello's name is the connection's identity ({@link #peerName}). The peer
 * is reported up when its hello arrives (the hello is then delivered to the handler like any frame)
 * and down on EOF, a reset, a bad length prefix (below 4 or above the frame limit: only that
 * connection is closed) or a CONTROL-lane overflow. A TCP listener binds loopback only unless
 * {@link LocalLinkConfig#allowNonLoopback} is set. A Unix socket file is created 0600 (its directory
 * 0700 when the link creates it), replaces a stale file nobody accepts on, is refused when another
 * process accepts on it, and is removed on {@link #close}.
 *
 * <p><b>Client</b> ({@link #connect}): dials a socket path or TCP address, sends the hello, then frames
 * both ways; the server is peer 0, reported up on the first poll. A client does not redial: once its
 * peer is down its sends answer TRANSPORT_DOWN (a client library above it reconnects).
 *
 * <p><b>Outbound lanes</b> per connection ({@link Lane}, {@link LaneQueues}): {@link #send(int, byte[],
 * int, int, Lane)} names the lane, plain {@link #send(int, byte[], int, int)} is CONTROL. A frame is
 * written at once when the connection has nothing waiting (or, once the driver calls {@link #flush},
 * gathered with the step's other frames into one write at the flush); otherwise it waits in its lane
 * and is written when the socket is writable (on {@link #poll} or {@link #flush}): CONTROL first, then RPC,
 * then TOPIC, a waiting TOPIC frame after {@link LocalLinkConfig#topicEvery} consecutive others. A full
 * RPC or TOPIC lane answers FLOW_BACKPRESSURE; a full CONTROL lane closes the connection: queued
 * frames are dropped, bytes already committed (a frame on the wire is never cut) are followed by a
 * {@link ClosingNotice}, the peer is reported down at once and the socket closes when the notice is
 * written (or after {@code closingGrace}). Writes never block.
 *
 * <p><b>Threads and readiness.</b> One thread drives the link ({@code poll}, {@code send}); a
 * {@code QueuedLink} gives it one. {@code poll} never blocks (its own selector, {@code selectNow}).
 * Connection channels are handed to the loop's {@link Readiness}; a client link reports every
 * arrival, a server does not (a new connection does not wake the loop, so it answers false and is
 * polled on the loop's period). Peer events reach the {@link PeerListener} from inside {@code poll}
 * or {@link #close}.
 *
 * <p><b>libtracer's TCP transport</b> ({@link LocalLinkConfig#helloRequired} off; docs/links.md, "TCP
 * link"): the same framing, lanes and counters, but no hello is required: a connection is up as soon
 * as it is connected, every frame is delivered, and a first frame that is a {@link LocalHello} is only
 * read for the peer's name (it is a whole libtracer frame, delivered like any other, so a plain
 * libtracer peer's frame is never taken for anything but itself). A connection gets the
 * {@link ClosingNotice} only when it announced itself with that hello; a plain v1 peer sees plain v1
 * bytes.
 *
 * <p>Host code: queued frames are copies and per-connection buffers are allocated at accept; a
 * frame written straight through or received allocates nothing.
 */
public final class LocalLink implements Link {
    private final int id;
    private final String name;
    private final LocalLinkConfig config;
    private final Clock clock;
    private final Selector selector;
    private final ServerSocketChannel server;
    private final Path socketFile;
    private final Object socketFileKey;
    private final boolean client;
    private final int maxFrame;

    /** Connections by peer handle (grown by doubling up to handleSpace as fresh handles are first given). */
    private Connection[] byPeer = new Connection[8];
    private final PeerHandles handles;
    private final ArrayList<Connection> active = new ArrayList<>();
    private final ArrayDeque<Integer> downs = new ArrayDeque<>();
    private final ResourceCounter connections;
    private final LinkCounters stats = new LinkCounters();
    private final LocalLinkStats localStats = new LocalLinkStats();
    private final LocalHello hello = new LocalHello();
    private final byte[] notice = new byte[ClosingNotice.BYTES];
    private final java.util.function.Consumer<SelectionKey> onKey = this::onKey;
    private boolean sweep;
    /**
     * True once the driver called {@link #flush()}: from then on a frame that finds its connection's
     * lanes empty is committed behind the bytes already waiting and the socket is written at the next
     * flush, so the frames of one step leave in one write per connection.
     */
    private boolean gathering;
    /** Connections with bytes committed since the last flush (each once, {@link Connection#dirty}). */
    private Connection[] dirty = new Connection[8];
    private int dirtyCount;

    private PeerListener listener;
    private Readiness readiness;
    private FrameHandler handler;
    private int handlerBudget;
    private int delivered;
    private int rotor;
    private long now;
    private boolean closed;

    private LocalLink(int id, String name, LocalLinkConfig config, Clock clock, Selector selector,
                      ServerSocketChannel server, Path socketFile, Object socketFileKey) {
        this.id = id;
        this.name = name;
        this.config = config;
        this.clock = clock;
        this.selector = selector;
        this.server = server;
        this.socketFile = socketFile;
        this.socketFileKey = socketFileKey;
        this.client = server == null;
        this.maxFrame = config.maxFrame;
        this.connections = new ResourceCounter(name + " connections", client ? 1 : config.connectionCapacity);
        this.handles = new PeerHandles(client ? 1 : config.handleSpace);
        this.now = clock.nanoTime();
    }

    /**
     * A server on {@code address}: a {@link UnixDomainSocketAddress} (a socket file) or an
     * {@link InetSocketAddress} (TCP; loopback unless {@link LocalLinkConfig#allowNonLoopback}).
     *
     * @throws BindException when the address is taken (a live process on the socket file, a file that
     *     is no socket, a TCP port in use)
     * @throws IllegalArgumentException for a non-loopback TCP address without the option, or another address type
     */
    public static LocalLink listen(int id, SocketAddress address, LocalLinkConfig config, Clock clock) throws IOException {
        Path file = null;
        boolean stale = false;
        ServerSocketChannel ch;
        if (address instanceof UnixDomainSocketAddress u) {
            file = u.getPath();
            stale = SocketFiles.prepare(file);
            ch = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        } else if (address instanceof InetSocketAddress inet) {
            if (inet.isUnresolved()) {
                throw new IllegalArgumentException("cannot resolve " + inet.getHostString());
            }
            if (!inet.getAddress().isLoopbackAddress() && !config.allowNonLoopback) {
                throw new IllegalArgumentException("local link on " + inet
                        + ": not a loopback address (other hosts could connect); set allowNonLoopback to expose it");
            }
            ch = ServerSocketChannel.open(inet.getAddress() instanceof java.net.Inet6Address
                    ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET);
        } else {
            throw new IllegalArgumentException("a local link listens on a Unix socket path or a TCP address: " + address);
        }
        Selector sel = null;
        Object key = null;
        try {
            ch.configureBlocking(false);
            try {
                ch.bind(address, Math.min(config.connectionCapacity, 1024));
            } catch (BindException e) {
                throw new BindException("cannot listen on " + address + ": " + e.getMessage());
            }
            key = file != null ? SocketFiles.bound(file) : null;
            sel = Selector.open();
            ch.register(sel, SelectionKey.OP_ACCEPT);
            String nm = file != null ? "local " + file
                    : (config.helloRequired ? "local tcp " : "tcp ") + hostPort((InetSocketAddress) ch.getLocalAddress());
            LocalLink link = new LocalLink(id, nm, config, clock, sel, ch, file, key);
            if (stale) {
                link.localStats.onStaleSocketReplaced();
            }
            return link;
        } catch (IOException | RuntimeException e) {
            ch.close();
            if (sel != null) {
                sel.close();
            }
            if (key != null) {
                SocketFiles.remove(file, key);
            }
            throw e;
        }
    }

    /**
     * A client connected to a server at {@code address} (a socket path or a TCP address), which has
     * been sent the hello for {@code helloName} (null: a hello without a name; without
     * {@link LocalLinkConfig#helloRequired}, null sends no hello at all). The connect itself is
     * the OS's (immediate for a socket file or loopback); everything after it is non-blocking.
     */
    public static LocalLink connect(int id, SocketAddress address, String helloName, LocalLinkConfig config,
                                    Clock clock) throws IOException {
        byte[] helloFrame = config.helloRequired || helloName != null ? LocalHello.frame(helloName) : null;
        SocketChannel ch;
        String nm;
        if (address instanceof UnixDomainSocketAddress u) {
            ch = SocketChannel.open(StandardProtocolFamily.UNIX);
            nm = "local->" + u.getPath();
        } else if (address instanceof InetSocketAddress inet) {
            ch = SocketChannel.open(inet.getAddress() instanceof java.net.Inet6Address
                    ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET);
            nm = (config.helloRequired ? "local tcp->" : "tcp->") + hostPort(inet);
        } else {
            throw new IllegalArgumentException("a local link connects to a Unix socket path or a TCP address: " + address);
        }
        Selector sel = null;
        try {
            ch.connect(address);
            ch.configureBlocking(false);
            if (address instanceof InetSocketAddress) {
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            }
            sel = Selector.open();
            LocalLink link = new LocalLink(id, nm, config, clock, sel, null, null, null);
            Connection c = link.open(ch, Connection.OPEN);
            if (helloFrame != null) {
                link.send(c.peer, helloFrame, 0, helloFrame.length, Lane.CONTROL);
            }
            return link;
        } catch (IOException | RuntimeException e) {
            ch.close();
            if (sel != null) {
                sel.close();
            }
            throw e;
        }
    }

    /** Parses {@code HOST:PORT} or a socket path (anything with a '/'): the address a local link option names. */
    public static SocketAddress parseAddress(String text) {
        if (text.indexOf('/') >= 0) {
            return UnixDomainSocketAddress.of(text);
        }
        int colon = text.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("expected a socket path or HOST:PORT, got '" + text + "'");
        }
        String host = colon == 0 ? "127.0.0.1" : text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad port in '" + text + "'", e);
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port out of range in '" + text + "'");
        }
        return new InetSocketAddress(host, port);
    }

    private static String hostPort(InetSocketAddress a) {
        String h = a.getHostString();
        return (h.indexOf(':') >= 0 ? "[" + h + "]" : h) + ":" + a.getPort();
    }

    private Connection open(SocketChannel ch, int state) throws IOException {
        int peer = handles.take();
        if (peer < 0) {
            throw new IOException("no free peer handle");
        }
        Connection c;
        try {
            c = new Connection(peer, ch, state, now, config, name);
            c.notices = config.helloRequired;
            c.key = ch.register(selector, SelectionKey.OP_READ, c);
        } catch (IOException | RuntimeException e) {
            handles.free(peer);
            throw e;
        }
        if (c.peer >= byPeer.length) {
            byPeer = java.util.Arrays.copyOf(byPeer, Math.max(c.peer + 1, Math.min(handles.capacity(), byPeer.length * 2)));
        }
        byPeer[c.peer] = c;
        active.add(c);
        connections.taken();
        if (readiness != null) {
            readiness.watch(ch);
        }
        return c;
    }

    private Connection connection(int peer) {
        return peer >= 0 && peer < byPeer.length ? byPeer[peer] : null;
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int maxFrame() {
        return maxFrame;
    }

    /** The server's bound address (useful after binding TCP port 0), or null for a client. */
    public SocketAddress localAddress() {
        try {
            return server != null ? server.getLocalAddress() : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** The name the connection's hello carried, or null (no such peer, or a hello without a name). */
    @Override
    public String peerName(int peer) {
        Connection c = connection(peer);
        return c != null ? c.name : null;
    }

    /** The generation of the connection holding {@code peer} now ({@link PeerHandles}); 0 when none does. */
    @Override
    public long peerGeneration(int peer) {
        return connection(peer) != null ? handles.generation(peer) : 0;
    }

    /**
     * Closes {@code peer}'s connection: nothing more is read from it, the frames already queued for it
     * are written (for at most {@code closingGrace}; then they are dropped), then a
     * {@link ClosingNotice} (TRANSPORT_DOWN), then the socket closes and the handle is free. Unknown
     * or closing peers are ignored.
     */
    @Override
    public void disconnect(int peer) {
        Connection c = closed ? null : connection(peer);
        if (c == null || !c.isLive() || c.drainingSince >= 0) {
            return;
        }
        if (!c.pendingOut() && c.lanes.isEmpty()) {
            closing(c, WireError.TRANSPORT_DOWN);
        } else {
            c.drainingSince = clock.nanoTime();
        }
    }

    /**
     * Gone: the link closed, or no connection holds the handle, or its connection is closing or
     * closed (EOF, a write error, a lane overflow), whether or not the listener has been told yet.
     * A connection still saying hello is not gone.
     */
    @Override
    public boolean isPeerGone(int peer) {
        Connection c = connection(peer);
        return closed || c == null || c.state >= Connection.CLOSING;
    }

    @Override
    public boolean isPeerUp(int peer) {
        Connection c = connection(peer);
        return c != null && c.state == Connection.OPEN && c.upReported;
    }

    /** Sends on the CONTROL lane (the node's replies and notices go through here). */
    @Override
    public int send(int peer, byte[] buf, int off, int len) {
        return send(peer, buf, off, len, Lane.CONTROL);
    }

    /**
     * Sends one frame on {@code lane}: written at once when the connection has nothing waiting, else
     * queued in the lane.
     *
     * @return OK; TRANSPORT_DOWN when the peer is not connected (or has not said hello yet), or when
     *     this CONTROL frame overflowed the lane and so closed the connection; FLOW_BACKPRESSURE when
     *     the RPC or TOPIC lane is full; FRAME_INVALID above the frame limit or below 4 bytes
     */
    @Override
    public int send(int peer, byte[] buf, int off, int len, Lane lane) {
        Connection c = closed ? null : connection(peer);
        if (c == null || c.state != Connection.OPEN) {
            stats.countSendRefused();
            return WireError.TRANSPORT_DOWN;
        }
        java.util.Objects.requireNonNull(lane, "lane");
        if (len < 4 || len > maxFrame) {
            stats.countOversize(); // below 4 is no frame: the receiver would close on its length
            return WireError.FRAME_INVALID;
        }
        if (gathering && c.lanes.isEmpty() && c.commit(buf, off, len)) {
            c.lanes.sent(lane);
            counted(len);
            markDirty(c);
            return WireError.OK;
        }
        if (!c.pendingOut() && c.lanes.isEmpty()) {
            c.commit(buf, off, len);
            c.lanes.sent(lane);
            counted(len);
            flush(c);
            return c.state == Connection.OPEN ? WireError.OK : WireError.TRANSPORT_DOWN;
        }
        int rc = c.lanes.offer(lane, buf, off, len);
        if (rc == WireError.OK) {
            return rc;
        }
        if (lane == Lane.CONTROL) {
            localStats.onControlOverflow();
            closing(c, WireError.FLOW_BACKPRESSURE);
            return WireError.TRANSPORT_DOWN;
        }
        localStats.onLaneRefused(lane);
        return rc;
    }

    private void counted(int len) {
        stats.countOut(len);
    }

    /** A connection with bytes committed for the next flush, listed once. */
    private void markDirty(Connection c) {
        if (c.dirty) {
            return;
        }
        if (dirtyCount == dirty.length) {
            dirty = java.util.Arrays.copyOf(dirty, dirtyCount * 2);
        }
        c.dirty = true;
        dirty[dirtyCount++] = c;
    }

    /**
     * Writes what every connection has waiting, as far as the sockets take it. Never blocks. The first
     * call turns gathering on: the driver then calls it once per step, after the step's sends (a
     * {@code QueuedLink}'s I/O thread does), and each connection's frames of that step leave in one
     * write; a driver that never calls it has each frame written at once. A connection whose socket
     * was full is written again when its socket is writable ({@link #poll}), not here.
     */
    @Override
    public void flush() {
        gathering = true;
        for (int i = 0; i < dirtyCount; i++) {
            Connection c = dirty[i];
            dirty[i] = null;
            c.dirty = false;
            if (c.state != Connection.CLOSED) {
                flush(c);
            }
        }
        dirtyCount = 0;
    }

    /** Writes committed bytes, refilling them from the lanes in lane order until the socket is full. */
    private void flush(Connection c) {
        try {
            while (true) {
                if (!c.write(localStats)) {
                    c.wantWrite(true);
                    return;
                }
                if (c.state == Connection.CLOSING) {
                    if (c.noticeQueued || !c.notices) {
                        finish(c);
                        return;
                    }
                    int n = ClosingNotice.write(notice, 0, c.noticeReason);
                    c.commit(notice, 0, n);
                    c.noticeQueued = true;
                    continue;
                }
                boolean any = false;
                for (Lane lane = c.lanes.next(); lane != null; lane = c.lanes.next()) {
                    byte[] f = c.lanes.peek(lane);
                    if (!c.commit(f, 0, f.length)) {
                        break;
                    }
                    c.lanes.take(lane);
                    counted(f.length);
                    any = true;
                }
                if (!any) {
                    c.wantWrite(false);
                    if (c.drainingSince >= 0) {
                        closing(c, WireError.TRANSPORT_DOWN); // disconnect: what was queued is out
                    }
                    return;
                }
            }
        } catch (IOException e) {
            localStats.onIoError();
            drop(c);
        }
    }

    /** The CONTROL lane overflowed (or the link is told to close it): notice, then close. */
    private void closing(Connection c, int reason) {
        localStats.onQueuedDropped(c.lanes.clear());
        c.state = Connection.CLOSING;
        c.closingSince = clock.nanoTime();
        c.noticeReason = reason;
        reportDown(c);
        flush(c);
    }

    /** Closes the socket of a connection now and reports it down (if it was up). */
    private void drop(Connection c) {
        if (c.state == Connection.CLOSED) {
            return;
        }
        reportDown(c);
        finish(c);
    }

    private void finish(Connection c) {
        c.state = Connection.CLOSED;
        localStats.onQueuedDropped(c.lanes.clear());
        try {
            c.channel.close();
        } catch (IOException ignored) {
            // closed either way
        }
        byPeer[c.peer] = null;
        handles.free(c.peer);
        connections.returned();
        sweep = true;
    }

    private void reportDown(Connection c) {
        if (c.upReported) {
            c.upReported = false;
            downs.addLast(c.peer);
        }
    }

    @Override
    public int poll(FrameHandler frameHandler, int maxFrames) {
        if (closed) {
            return 0;
        }
        now = clock.nanoTime();
        fireDowns();
        handler = frameHandler;
        handlerBudget = maxFrames;
        delivered = 0;
        try {
            selector.selectNow(onKey);
        } catch (IOException e) {
            // the selector is closed under us: nothing to do
        }
        int n = active.size();
        for (int k = 0; k < n && !closed; k++) {
            Connection c = active.get((rotor + k) % n);
            step(c);
        }
        rotor = n == 0 ? 0 : (rotor + 1) % n;
        if (sweep) {
            sweep = false;
            active.removeIf(c -> c.state == Connection.CLOSED);
        }
        handler = null;
        fireDowns();
        return delivered;
    }

    private void onKey(SelectionKey k) {
        if (!k.isValid()) {
            return;
        }
        Object a = k.attachment();
        if (a == null) {
            if (k.isAcceptable()) {
                acceptAll();
            }
            return;
        }
        Connection c = (Connection) a;
        if (k.isReadable()) {
            c.readable = true;
        }
        if (k.isValid() && k.isWritable() && c.state != Connection.CLOSED) {
            flush(c);
        }
    }

    private void acceptAll() {
        while (true) {
            SocketChannel ch;
            try {
                ch = server.accept();
            } catch (IOException e) {
                return;
            }
            if (ch == null) {
                return;
            }
            localStats.onAccepted();
            if (connections.inUse() >= connections.capacity() || handles.inUse() >= handles.capacity()) {
                connections.countRefused();
                stats.countPeerRefused();
                closeQuietly(ch);
                continue;
            }
            try {
                ch.configureBlocking(false);
                if (ch.getLocalAddress() instanceof InetSocketAddress) {
                    ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                }
                open(ch, config.helloRequired ? Connection.HELLO : Connection.OPEN);
            } catch (IOException | RuntimeException e) {
                localStats.onIoError();
                closeQuietly(ch);
            }
        }
    }

    private static void closeQuietly(SocketChannel ch) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // nothing left
        }
    }

    /** One connection's turn in a poll: timers, the client's first up, then its input. */
    private void step(Connection c) {
        switch (c.state) {
            case Connection.CLOSING:
                if (c.pendingOut() || !c.noticeQueued) {
                    flush(c);
                }
                if (c.state == Connection.CLOSING && now - c.closingSince >= config.closingGraceNanos) {
                    localStats.onClosingCut();
                    finish(c);
                }
                return;
            case Connection.HELLO:
                if (now - c.openedAt >= config.helloTimeoutNanos) {
                    localStats.onHelloTimeout();
                    drop(c);
                    return;
                }
                break;
            case Connection.OPEN:
                if (c.drainingSince >= 0) {
                    if (now - c.drainingSince >= config.closingGraceNanos) {
                        localStats.onClosingCut();
                        closing(c, WireError.TRANSPORT_DOWN);
                    }
                    return; // disconnected: nothing more is read
                }
                if ((client || !config.helloRequired) && !c.upReported) {
                    up(c);
                }
                break;
            default:
                return;
        }
        if ((c.readable || c.buffered()) && delivered < handlerBudget) {
            drain(c);
        }
    }

    private void up(Connection c) {
        c.upReported = true;
        if (listener != null) {
            listener.onPeerUp(this, c.peer);
        }
    }

    /** Delivers the connection's frames within the poll's budget, reading the socket at most once. */
    private void drain(Connection c) {
        boolean read = false;
        while (delivered < handlerBudget && c.isLive() && !closed) {
            int len = c.nextFrame(maxFrame);
            if (len == Connection.BAD_LENGTH) {
                stats.countOversize();
                localStats.onBadLength();
                drop(c);
                return;
            }
            if (len == Connection.NEED_MORE) {
                if (read) {
                    return;
                }
                read = true;
                int n;
                try {
                    n = c.read();
                } catch (IOException e) {
                    localStats.onIoError();
                    drop(c);
                    return;
                }
                if (n < 0) {
                    localStats.onClosedByPeer();
                    drop(c);
                    return;
                }
                if (n == 0) {
                    c.readable = false;
                    return;
                }
                continue;
            }
            int off = c.frameOffset;
            stats.countIn(len);
            if (c.state == Connection.HELLO) {
                if (hello.read(c.rx, off, len) != WireError.OK) {
                    localStats.onHelloRefused();
                    drop(c);
                    return;
                }
                c.name = hello.hasName() ? Utf8.toString(c.rx, hello.nameOffset(), hello.nameLength()) : null;
                c.state = Connection.OPEN;
                up(c);
            } else if (!FrameShape.isOneFrame(c.rx, off, len)) {
                stats.countInvalid(); // the framing held: only this frame is dropped
                continue;
            } else if (!c.firstSeen && !client && !config.helloRequired && hello.read(c.rx, off, len) == WireError.OK) {
                // an optional announcement: the peer's name, and it reads the closing notice
                c.name = hello.hasName() ? Utf8.toString(c.rx, hello.nameOffset(), hello.nameLength()) : null;
                c.notices = true;
                localStats.onAnnounced();
            }
            c.firstSeen = true;
            delivered++;
            handler.onFrame(this, c.peer, c.rx, off, len);
        }
    }

    private void fireDowns() {
        while (!downs.isEmpty()) {
            int peer = downs.pollFirst();
            if (listener != null) {
                listener.onPeerDown(this, peer);
            }
        }
    }

    @Override
    public void setPeerListener(PeerListener peerListener) {
        listener = peerListener;
    }

    /**
     * Hands every connection's channel to the loop's selector. A client answers true (its one
     * channel carries every arrival); a server answers false: a new connection does not wake the
     * loop, which must poll the link on its period.
     */
    @Override
    public boolean setReadiness(Readiness r) {
        readiness = r;
        boolean all = true;
        for (Connection c : active) {
            all &= c.state != Connection.CLOSED && r.watch(c.channel);
        }
        return client && all && !closed;
    }

    @Override
    public LinkStats stats() {
        return stats;
    }

    /** Close reasons and lane refusals. */
    public LocalLinkStats localStats() {
        return localStats;
    }

    /** Connections (capacity, open, peak, refused at capacity). */
    @Override
    public BoundedResource peers() {
        return connections;
    }

    /** One connection's lane (capacity in frames, frames waiting, peak, refusals), or null. */
    public BoundedResource lane(int peer, Lane lane) {
        Connection c = connection(peer);
        return c != null ? c.lanes.depth(lane) : null;
    }

    /** Frames waiting in one connection's lane (0 for an unknown peer). */
    public int laneDepth(int peer, Lane lane) {
        Connection c = connection(peer);
        return c != null ? c.lanes.frames(lane) : 0;
    }

    /** Peer handles of the open connections (hello done), for tools and tests. Allocates. */
    public int[] openPeers() {
        return active.stream().filter(c -> c.state == Connection.OPEN).mapToInt(c -> c.peer).sorted().toArray();
    }

    /**
     * Closes every connection (a server sends each open one a {@link ClosingNotice} with TRANSPORT_DOWN
     * if its socket takes it at once; a client just closes), reports their peers down, closes the listener and removes its socket
     * file. Further sends answer TRANSPORT_DOWN.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Connection c : active) {
            if (!client && c.notices && c.state == Connection.OPEN && !c.pendingOut()) {
                int n = ClosingNotice.write(notice, 0, WireError.TRANSPORT_DOWN);
                c.commit(notice, 0, n);
                try {
                    c.write(localStats);
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
            if (c.state != Connection.CLOSED) {
                reportDown(c);
                finish(c);
            }
        }
        active.clear();
        fireDowns();
        try {
            if (server != null) {
                server.close();
            }
            selector.close();
        } catch (IOException ignored) {
            // released either way
        }
        if (socketFile != null) {
            SocketFiles.remove(socketFile, socketFileKey);
        }
    }
}
