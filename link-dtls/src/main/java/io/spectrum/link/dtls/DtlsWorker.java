package io.spectrum.link.dtls;

import io.spectrum.link.LinkCounters;
import io.spectrum.link.Readiness;
import io.spectrum.stats.ResourceCounter;
import io.spectrum.time.Clock;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;

/**
 * The DTLS link's own thread: it alone touches the socket and the SSLEngines, so handshakes and
 * record encryption never run on the node's loop. Frames come from the node through the outbound
 * {@link FrameRing} and go to it, decrypted, through the inbound one (with UP/GONE peer events).
 *
 * <p>Listener: a datagram from an unknown address is looked at only if it is an epoch-0
 * ClientHello. Cookies first: a ClientHello is answered by a throw-away server engine, and when
 * all that engine said is a HelloVerifyRequest (no cookie, or not a valid one) nothing of it is
 * kept, so a spoofed source, which never sees the cookie, creates no handshake state at all. Only a
 * ClientHello that comes back with a valid cookie (the JDK's cookie secret is per
 * {@link SSLContext}, so any engine of it checks any cookie) takes an entry of the small handshake
 * table (not the peer table), and only if the table has room: at most
 * {@link #HANDSHAKES_PER_ADDRESS} entries per source address, never the client random of an entry
 * already there (a replayed hello), and an entry is never taken from a handshake in progress. The
 * ClientHellos answered per pass over the socket are bounded ({@link #HELLO_BUDGET}, the rest
 * shed and counted), so the records of established associations, read in the same pass, never
 * wait behind more than that much handshake work. Only a completed handshake with an accepted
 * certificate takes a peer handle, found by the certificate's name: a name that comes back (from
 * any address) gets its old handle.
 *
 * <p>Dialer: one client engine towards the peer; the handshake restarts (offering the last session
 * for resumption) when the peer has been silent for the peer timeout, or a ping interval after a
 * failed or abandoned one.
 */
final class DtlsWorker implements Runnable {
    /** Half-done handshakes (past the cookie) a listener keeps at once. */
    static final int HANDSHAKE_SLOTS = 8;
    /** Half-done handshakes one source address (IP, any port) may hold. */
    static final int HANDSHAKES_PER_ADDRESS = 4;
    /**
     * ClientHellos from strangers answered per pass over the socket, for each of: hellos without a
     * cookie (a stateless HelloVerifyRequest), hellos with one (an engine that may go on). The rest
     * of the pass's hellos are dropped (counted in {@link DtlsStats#hellosShed}); a genuine client
     * sends its hello again.
     */
    static final int HELLO_BUDGET = 32;
    /** DTLS record header (13) + AES-GCM explicit nonce (8) and tag (16), with room to spare. */
    static final int RECORD_OVERHEAD = 64;
    /** Largest DTLS record payload (2^14). */
    static final int MAX_PLAINTEXT = 16384;
    static final long INITIAL_RTO_NANOS = 500_000_000L;
    static final long MAX_RTO_NANOS = 4_000_000_000L;

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);
    /** The DTLS record content type of application data (RFC 6347 4.1). */
    private static final byte APPLICATION_DATA = 23;

    private final DtlsLink link;
    private final DatagramChannel channel;
    private final Selector selector;
    private final SSLContext context;
    private final boolean dialer;
    private final InetSocketAddress remote;
    private final Clock clock;
    private final int maxFrame;
    private final long peerTimeout;
    private final long pingInterval;
    private final long handshakeTimeout;
    /** Dialer: silence after which it handshakes again (two unanswered probes, at most the peer timeout). */
    private final long silenceLimit;
    private final FrameRing in;
    private final FrameRing out;
    private final DtlsStats dtls;
    private final LinkCounters stats;
    private final ResourceCounter peerTable;

    /** Per peer handle: the current association, the name that owns the handle (kept while the peer is away). */
    final Association[] peers;
    final String[] slotName;
    private final byte[][] lastSession;
    private final boolean[] upPending;
    private final boolean[] gonePending;
    private final Association[] pending;

    private final ByteBuffer netIn;
    private final ByteBuffer netOut;
    /** Listener: a stranger's first ClientHello, rebuilt ({@link #primeWithFirstHello}). */
    private final ByteBuffer helloScratch;
    private final ByteBuffer app;

    /** Dialer: the one association (handshaking or established), and when to try again after a failure. */
    private Association dial;
    private long retryAt;
    /** What is left of this pass's {@link #HELLO_BUDGET}: hellos without a cookie, hellos with one. */
    private int hellosLeft;
    private int cookiedHellosLeft;

    volatile boolean sleeping;
    volatile boolean closed;
    volatile Readiness readiness;

    DtlsWorker(DtlsLink link, DatagramChannel channel, SSLContext context, InetSocketAddress remote, int peers,
               int maxFrame, long peerTimeout, long pingInterval, Clock clock, FrameRing in, FrameRing out,
               DtlsStats dtls, LinkCounters stats, ResourceCounter peerTable) throws IOException {
        this.link = link;
        this.channel = channel;
        this.context = context;
        this.remote = remote;
        this.dialer = remote != null;
        this.clock = clock;
        this.maxFrame = maxFrame;
        this.peerTimeout = peerTimeout;
        this.pingInterval = pingInterval;
        this.handshakeTimeout = Math.max(peerTimeout, 8 * INITIAL_RTO_NANOS);
        this.silenceLimit = Math.min(peerTimeout, 2 * pingInterval);
        this.in = in;
        this.out = out;
        this.dtls = dtls;
        this.stats = stats;
        this.peerTable = peerTable;
        this.peers = new Association[peers];
        this.slotName = new String[peers];
        this.lastSession = new byte[peers][];
        this.upPending = new boolean[peers];
        this.gonePending = new boolean[peers];
        this.pending = new Association[dialer ? 0 : HANDSHAKE_SLOTS];
        this.netIn = ByteBuffer.allocate(65536);
        this.helloScratch = ByteBuffer.allocate(dialer ? 0 : 65536);
        this.netOut = ByteBuffer.allocate(maxFrame + RECORD_OVERHEAD + 2048);
        this.app = ByteBuffer.allocate(Math.max(maxFrame, MAX_PLAINTEXT) + 2048);
        this.selector = Selector.open();
        channel.register(selector, SelectionKey.OP_READ);
    }

    /** Wakes the thread if it sleeps in its selector (from the node's thread; allocation-free). */
    void wake() {
        if (sleeping) {
            selector.wakeup();
        }
    }

    @Override
    public void run() {
        try {
            if (dialer) {
                startClient(clock.nanoTime());
            }
            while (!closed) {
                long now = clock.nanoTime();
                receive(now);
                flushEvents();
                send();
                timers(now);
                sleeping = true;
                if (out.isEmpty() && !closed) {
                    selector.select(handshaking() ? 10 : 50);
                }
                sleeping = false;
                selector.selectedKeys().clear();
            }
        } catch (IOException | RuntimeException e) {
            if (!closed) {
                stats.countReconnect(); // the socket failed under us; the link is dead, its peers go down
                link.workerDied(e);
            }
        } finally {
            try {
                selector.close();
            } catch (IOException ignored) {
                // nothing left to release
            }
        }
    }

    private boolean handshaking() {
        if (dialer) {
            return dial == null || !dial.established;
        }
        for (Association p : pending) {
            if (p != null) {
                return true;
            }
        }
        return false;
    }

    // ---- input ----

    private void receive(long now) throws IOException {
        hellosLeft = HELLO_BUDGET;
        cookiedHellosLeft = HELLO_BUDGET;
        for (int i = 0; i < 256; i++) {
            ByteBuffer b = netIn;
            b.clear();
            SocketAddress from;
            try {
                if (dialer) {
                    from = channel.read(b) > 0 ? remote : null;
                } else {
                    from = channel.receive(b);
                }
            } catch (java.net.PortUnreachableException e) {
                continue; // the peer's port was closed when we last sent: nothing to read now
            }
            if (from == null) {
                return;
            }
            b.flip();
            onDatagram(from, now);
        }
    }

    private void onDatagram(SocketAddress from, long now) {
        boolean hello = isClientHello(netIn);
        // application data goes to the established session even while a new handshake runs beside it
        boolean data = netIn.remaining() > 0 && netIn.get(netIn.position()) == APPLICATION_DATA;
        if (dialer) {
            Association current = peers[0];
            Association to = data && current != null && current.established ? current : dial;
            if (to != null) {
                feed(to, now);
            }
            return;
        }
        Association a = find(peers, from);
        if (data && a != null && a.established) {
            feed(a, now);
            return;
        }
        Association p = find(pending, from);
        if (p == null && hello) {
            stranger(from, now);
            return;
        }
        if (p != null) {
            feed(p, now);
        } else if (a != null && a.established) {
            feed(a, now);
        } else {
            dtls.countRecordsDropped();
        }
    }

    /**
     * A ClientHello from an address without a handshake in progress: cookies first. A hello
     * without a cookie is answered by a throw-away engine (a HelloVerifyRequest) and leaves nothing
     * behind; a hello with one is looked at only while the handshake table has room for its address
     * and no entry holds its client random, and is kept only if the engine went past the cookie.
     */
    private void stranger(SocketAddress from, long now) {
        int cookie = helloCookieLength(netIn);
        if (cookie < 0) {
            dtls.countRecordsDropped(); // a fragmented or cut ClientHello: a genuine first flight is one record
            return;
        }
        if (cookie == 0 ? hellosLeft-- <= 0 : cookiedHellosLeft-- <= 0) {
            dtls.countHellosShed();
            return;
        }
        if (cookie > 0 && !roomFor(from)) {
            dtls.countHandshakesRefused();
            return;
        }
        byte[] random = new byte[32];
        netIn.get(netIn.position() + HELLO_RANDOM, random);
        if (cookie > 0 && replayed(random)) {
            dtls.countHandshakesRefused(); // the same ClientHello from another address: a replay
            return;
        }
        Association p = newServer(from, now);
        p.random = random;
        if (cookie > 0 && !primeWithFirstHello(p, cookie)) {
            dtls.countRecordsDropped();
            return;
        }
        feed(p, now);
        if (!p.pastCookie || p.ended) {
            return; // all it said was "send the cookie" (or it failed): nothing is kept
        }
        if (!roomFor(from)) {
            // a hello without a cookie that went on: a resumption (the JDK skips the cookie then);
            // only while there is room, like any other
            dtls.countHandshakesRefused();
            alert(p);
            return;
        }
        for (int i = 0; i < pending.length; i++) {
            if (pending[i] == null) {
                pending[i] = p;
                break;
            }
        }
        dtls.countStarted();
    }

    /**
     * Brings a fresh server engine to where the one that sent the cookie was: the JDK's engine
     * takes a ClientHello with a cookie (message_seq 1) only after it answered one without (seq 0),
     * and the cookie is checked against the context's secret, not the engine's. So the engine is
     * shown the client's first hello, rebuilt from the second (same fields, no cookie, seq 0), and
     * its HelloVerifyRequest is discarded; neither is in the handshake hash (RFC 6347 4.2.6), so
     * the transcript is the client's. False when the engine did not take it.
     */
    private boolean primeWithFirstHello(Association a, int cookie) {
        ByteBuffer src = netIn;
        int p = src.position();
        int length = u24(src, p + 14);
        int cookieAt = HELLO_RANDOM + 32 + 1 + (src.get(p + HELLO_RANDOM + 32) & 0xFF);
        ByteBuffer first = helloScratch;
        first.clear();
        int bodyLength = length - cookie;
        for (int i = 0; i < 3; i++) {
            first.put(src.get(p + i)); // content type, version
        }
        for (int i = 0; i < 8; i++) {
            first.put((byte) 0); // epoch 0, record sequence 0
        }
        first.putShort((short) (12 + bodyLength));
        first.put((byte) 1); // client_hello
        putU24(first, bodyLength);
        first.putShort((short) 0); // message_seq
        putU24(first, 0);
        putU24(first, bodyLength);
        for (int i = p + 25; i < p + cookieAt; i++) {
            first.put(src.get(i));
        }
        first.put((byte) 0); // no cookie
        for (int i = p + cookieAt + 1 + cookie; i < p + 25 + length; i++) {
            first.put(src.get(i));
        }
        first.flip();
        try {
            app.clear();
            SSLEngineResult r = a.engine.unwrap(first, app);
            HandshakeStatus hs = r.getHandshakeStatus();
            for (int guard = 0; guard < 16; guard++) {
                if (hs == HandshakeStatus.NEED_TASK) {
                    for (Runnable t; (t = a.engine.getDelegatedTask()) != null; ) {
                        t.run();
                    }
                    hs = a.engine.getHandshakeStatus();
                } else if (hs == HandshakeStatus.NEED_WRAP) {
                    netOut.clear();
                    hs = a.engine.wrap(EMPTY, netOut).getHandshakeStatus(); // the HelloVerifyRequest, not sent
                } else {
                    break;
                }
            }
            return hs == HandshakeStatus.NEED_UNWRAP;
        } catch (SSLException e) {
            return false;
        }
    }

    private static void putU24(ByteBuffer b, int v) {
        b.put((byte) (v >>> 16)).put((byte) (v >>> 8)).put((byte) v);
    }

    /** Offset of the client random in a ClientHello datagram: record header 13, handshake header 12, version 2. */
    private static final int HELLO_RANDOM = 13 + 12 + 2;

    /**
     * The cookie length of the unfragmented ClientHello at the buffer's position (RFC 6347 4.2.1),
     * or -1 when it is fragmented or cut short.
     */
    static int helloCookieLength(ByteBuffer b) {
        int p = b.position();
        int n = b.remaining();
        if (n < HELLO_RANDOM + 32 + 2) {
            return -1;
        }
        int length = u24(b, p + 14);
        int fragmentOffset = u24(b, p + 19);
        int fragmentLength = u24(b, p + 22);
        if (fragmentOffset != 0 || fragmentLength != length || 25 + length > n) {
            return -1;
        }
        int sid = HELLO_RANDOM + 32;
        int cookieAt = sid + 1 + (b.get(p + sid) & 0xFF);
        if (cookieAt >= 25 + length) {
            return -1;
        }
        int cookie = b.get(p + cookieAt) & 0xFF;
        return cookieAt + 1 + cookie <= 25 + length ? cookie : -1;
    }

    private static int u24(ByteBuffer b, int at) {
        return (b.get(at) & 0xFF) << 16 | (b.get(at + 1) & 0xFF) << 8 | (b.get(at + 2) & 0xFF);
    }

    /** True while the handshake table has a free entry and the address holds fewer than its share. */
    private boolean roomFor(SocketAddress from) {
        java.net.InetAddress ip = from instanceof InetSocketAddress ? ((InetSocketAddress) from).getAddress() : null;
        int free = 0;
        int same = 0;
        for (Association a : pending) {
            if (a == null) {
                free++;
            } else if (ip != null && a.address instanceof InetSocketAddress
                    && ip.equals(((InetSocketAddress) a.address).getAddress())) {
                same++;
            }
        }
        return free > 0 && same < HANDSHAKES_PER_ADDRESS;
    }

    private boolean replayed(byte[] random) {
        for (Association a : pending) {
            if (a != null && a.random != null && Arrays.equals(a.random, random)) {
                return true;
            }
        }
        return false;
    }

    /** An epoch-0 handshake record carrying a ClientHello (RFC 6347 4.1, 4.2.2): the only thing a stranger may send. */
    static boolean isClientHello(ByteBuffer b) {
        int p = b.position();
        return b.remaining() >= 25 && b.get(p) == 22 && b.get(p + 3) == 0 && b.get(p + 4) == 0 && b.get(p + 13) == 1;
    }

    private static Association find(Association[] table, SocketAddress from) {
        for (Association a : table) {
            if (a != null && from.equals(a.address)) {
                return a;
            }
        }
        return null;
    }

    private void feed(Association a, long now) {
        a.heardAny = true;
        try {
            while (netIn.hasRemaining()) {
                app.clear();
                SSLEngineResult r = a.engine.unwrap(netIn, app);
                if (r.bytesProduced() > 0) {
                    deliver(a, now);
                }
                if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
                    ended(a);
                    return;
                }
                if (r.getStatus() != SSLEngineResult.Status.OK) {
                    break;
                }
                handshake(a, r.getHandshakeStatus(), now);
                if (r.bytesConsumed() == 0) {
                    break;
                }
            }
        } catch (SSLException e) {
            failed(a, e, now);
        }
    }

    private void handshake(Association a, HandshakeStatus hs, long now) throws SSLException {
        for (int guard = 0; guard < 64; guard++) {
            switch (hs) {
                case NEED_TASK -> {
                    for (Runnable t; (t = a.engine.getDelegatedTask()) != null; ) {
                        t.run();
                    }
                    hs = a.engine.getHandshakeStatus();
                }
                case NEED_WRAP -> hs = wrapHandshake(a, now);
                case NEED_UNWRAP_AGAIN -> {
                    app.clear();
                    SSLEngineResult r = a.engine.unwrap(EMPTY, app);
                    if (r.bytesProduced() > 0) {
                        deliver(a, now);
                    }
                    hs = r.getHandshakeStatus();
                }
                case FINISHED -> {
                    established(a, now);
                    hs = a.engine.getHandshakeStatus();
                    if (hs == HandshakeStatus.FINISHED) {
                        return;
                    }
                }
                default -> {
                    return; // NEED_UNWRAP: wait for the peer; NOT_HANDSHAKING: done
                }
            }
        }
    }

    private HandshakeStatus wrapHandshake(Association a, long now) throws SSLException {
        netOut.clear();
        SSLEngineResult r = a.engine.wrap(EMPTY, netOut);
        if (r.bytesProduced() > 0) {
            netOut.flip();
            if (isHelloVerifyRequest(netOut)) {
                dtls.countCookiesSent();
            } else {
                a.pastCookie = true;
            }
            if (dialer && !a.heardAny && a.firstHello == null && isClientHello(netOut)) {
                a.firstHello = new byte[netOut.remaining()];
                netOut.get(netOut.position(), a.firstHello);
            }
            transmit(a.address);
            a.nextRetransmit = now + a.rto;
        }
        if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
            return HandshakeStatus.NOT_HANDSHAKING;
        }
        return r.getHandshakeStatus();
    }

    static boolean isHelloVerifyRequest(ByteBuffer b) {
        int p = b.position();
        return b.remaining() >= 14 && b.get(p) == 22 && b.get(p + 13) == 3;
    }

    private void deliver(Association a, long now) {
        a.lastHeard = now;
        if (!a.established) {
            dtls.countRecordsDropped(); // application data before the handshake accepted the peer
            return;
        }
        int slot = a.slot;
        app.flip();
        int len = app.remaining();
        if (len > maxFrame) {
            stats.countOversize();
            return;
        }
        flushEvents();
        int s = upPending[slot] ? -1 : in.claim();
        if (s < 0) {
            dtls.countInboundDropped();
            return;
        }
        app.get(in.data[s], 0, len);
        in.publish(s, FrameRing.FRAME, slot, len);
        wakeNode();
    }

    /** Tells the node's loop that the inbound ring has something (frames, UP, GONE). */
    private void wakeNode() {
        Readiness r = readiness;
        if (r != null) {
            r.wake();
        }
    }

    // ---- handshake outcomes ----

    private void established(Association a, long now) {
        if (a.established) {
            return;
        }
        SSLSession session = a.engine.getSession();
        String name;
        try {
            Certificate[] chain = session.getPeerCertificates();
            name = DtlsCredentials.nameOf((X509Certificate) chain[0]);
        } catch (javax.net.ssl.SSLPeerUnverifiedException e) {
            failed(a, e, now);
            return;
        }
        int slot = dialer ? 0 : slotFor(name, now);
        removePending(a);
        if (slot < 0) {
            stats.countPeerRefused();
            dtls.countUnfinished();
            peerTable.countRefused();
            closeQuietly(a);
            return;
        }
        byte[] id = session.getId();
        boolean resumed = name.equals(slotName[slot]) && lastSession[slot] != null && Arrays.equals(lastSession[slot], id);
        Association old = peers[slot];
        if (old != null && old != a) {
            if (!name.equals(slotName[slot])) {
                stats.countPeerEvicted();
                gonePending[slot] = true;
            } else if (!resumed) {
                gonePending[slot] = true; // the same peer with a new session: it restarted, its old state is stale
            }
            if (!name.equals(slotName[slot])) {
                closeQuietly(old); // another peer's entry given away: tell it
            }
        }
        if (peers[slot] == null && slotName[slot] == null && !dialer) {
            peerTable.taken();
        }
        a.name = name;
        a.sessionId = id;
        a.slot = slot;
        a.established = true;
        a.lastHeard = now;
        peers[slot] = a;
        slotName[slot] = name;
        lastSession[slot] = id;
        upPending[slot] = true;
        dtls.countHandshakes();
        if (resumed) {
            dtls.countResumed();
        }
        flushEvents();
    }

    /** The handle of {@code name}: its own, else a free one, else the longest-silent one past the timeout; -1 when full. */
    private int slotFor(String name, long now) {
        int free = -1;
        int stalest = -1;
        for (int i = 0; i < slotName.length; i++) {
            if (name.equals(slotName[i])) {
                return i;
            }
            if (slotName[i] == null) {
                if (free < 0) {
                    free = i;
                }
                continue;
            }
            Association a = peers[i];
            long heard = a == null ? Long.MIN_VALUE : a.lastHeard;
            if ((a == null || now - heard > peerTimeout)
                    && (stalest < 0 || peers[stalest] != null && (a == null || heard - peers[stalest].lastHeard < 0))) {
                stalest = i;
            }
        }
        return free >= 0 ? free : stalest;
    }

    private void failed(Association a, Exception e, long now) {
        if (!dialer && !a.established && !isPending(a)) {
            // a throw-away engine that could not even answer the hello: nothing was kept
            a.ended = true;
            dtls.countRecordsDropped();
            alert(a);
            return;
        }
        PeerRefusal refusal = PeerRefusal.in(e);
        if (refusal != null && refusal.reason() == PeerRefusal.REVOKED) {
            dtls.countRefusedRevoked();
            stats.countPeerRefused();
        } else if (refusal != null) {
            dtls.countRefusedUntrusted();
            stats.countPeerRefused();
        } else if (!dialer && noCertificate(e)) {
            dtls.countRefusedNoCertificate();
            stats.countPeerRefused();
        } else {
            dtls.countHandshakeFailures();
        }
        link.refusal(e);
        alert(a);
        if (a.established) {
            ended(a);
        } else {
            removePending(a);
        }
        if (dialer && a == dial) {
            dial = null;
            retryAt = now + pingInterval;
        }
    }

    private static boolean noCertificate(Exception e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = t.getMessage();
            if (m != null && (m.contains("Empty client certificate chain") || m.contains("certificate_required")
                    || m.contains("Empty server certificate chain"))) {
                return true;
            }
        }
        return false;
    }

    /** Sends the fatal alert the engine queued after a failure, so the peer stops at once instead of timing out. */
    private void alert(Association a) {
        try {
            a.engine.closeOutbound();
            for (int i = 0; i < 4 && !a.engine.isOutboundDone(); i++) {
                netOut.clear();
                SSLEngineResult r = a.engine.wrap(EMPTY, netOut);
                if (r.bytesProduced() == 0) {
                    break;
                }
                netOut.flip();
                transmit(a.address);
            }
        } catch (SSLException | RuntimeException ignored) {
            // the engine has nothing more to say
        }
    }

    private void closeQuietly(Association a) {
        alert(a);
    }

    /** The association ended (close_notify, or a failure after it was established): its peer is gone. */
    private void ended(Association a) {
        a.ended = true;
        if (!a.established && a.slot < 0 && (dialer || isPending(a))) {
            dtls.countUnfinished(); // closed before its handshake ended
        }
        if (a.established && a.slot >= 0 && peers[a.slot] == a) {
            peers[a.slot] = null;
            gonePending[a.slot] = true;
            upPending[a.slot] = false;
        }
        a.established = false;
        removePending(a);
        if (dialer && a == dial) {
            dial = null;
            retryAt = clock.nanoTime() + pingInterval;
        }
    }

    private boolean isPending(Association a) {
        for (Association p : pending) {
            if (p == a) {
                return true;
            }
        }
        return false;
    }

    private void removePending(Association a) {
        for (int i = 0; i < pending.length; i++) {
            if (pending[i] == a) {
                pending[i] = null;
            }
        }
    }

    /** Posts the GONE/UP events the node has not yet been told (an event waits while the inbound ring is full). */
    private void flushEvents() {
        for (int i = 0; i < upPending.length; i++) {
            if (gonePending[i]) {
                int s = in.claim();
                if (s < 0) {
                    return;
                }
                in.publish(s, FrameRing.GONE, i, 0);
                gonePending[i] = false;
                wakeNode();
            }
            if (upPending[i]) {
                int s = in.claim();
                if (s < 0) {
                    return;
                }
                in.publish(s, FrameRing.UP, i, 0);
                upPending[i] = false;
                wakeNode();
            }
        }
    }

    // ---- engines ----

    /** A server engine for a stranger's ClientHello; {@link #stranger} decides whether it is kept. */
    private Association newServer(SocketAddress from, long now) {
        SSLEngine e = context.createSSLEngine();
        e.setUseClientMode(false);
        configure(e);
        e.setNeedClientAuth(true);
        return new Association(e, from, now, INITIAL_RTO_NANOS);
    }

    private void startClient(long now) {
        SSLEngine e = context.createSSLEngine(remote.getHostString(), remote.getPort());
        e.setUseClientMode(true);
        configure(e);
        Association a = new Association(e, remote, now, INITIAL_RTO_NANOS);
        dial = a;
        dtls.countStarted();
        try {
            e.beginHandshake();
            handshake(a, HandshakeStatus.NEED_WRAP, now);
        } catch (SSLException ex) {
            failed(a, ex, now);
        }
    }

    private void configure(SSLEngine e) {
        SSLParameters p = e.getSSLParameters();
        p.setProtocols(new String[] {"DTLSv1.2"});
        p.setMaximumPacketSize(maxFrame + RECORD_OVERHEAD);
        p.setEnableRetransmissions(true);
        e.setSSLParameters(p);
    }

    // ---- output ----

    private void send() {
        for (int s; (s = out.peek()) >= 0; out.release()) {
            int peer = out.peer[s];
            Association a = peer >= 0 && peer < peers.length ? peers[peer] : null;
            if (a == null || !a.established) {
                stats.countSendRefused();
                continue;
            }
            ByteBuffer src = out.buffer[s];
            src.clear();
            src.limit(out.length[s]);
            try {
                netOut.clear();
                SSLEngineResult r = a.engine.wrap(src, netOut);
                if (r.bytesProduced() > 0) {
                    netOut.flip();
                    transmit(a.address);
                }
                if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
                    ended(a);
                }
            } catch (SSLException e) {
                failed(a, e, clock.nanoTime());
            }
        }
    }

    private void transmit(SocketAddress to) {
        try {
            if (dialer) {
                channel.write(netOut);
            } else {
                channel.send(netOut, to);
            }
        } catch (IOException e) {
            stats.countSendRefused(); // an ICMP port unreachable from an earlier datagram, or no route
        }
    }

    // ---- timers ----

    private void timers(long now) {
        for (Association p : pending) {
            if (p != null) {
                retransmit(p, now);
            }
        }
        if (!dialer) {
            return;
        }
        if (dial == null) {
            if (now - retryAt >= 0) {
                startClient(now);
            }
        } else if (!dial.established) {
            retransmit(dial, now);
        } else if (now - dial.lastHeard > silenceLimit) {
            // no answer to the node's probes: the peer restarted (its keys are gone) or went away.
            // Handshake again beside the current session, offering it for resumption; the node
            // keeps its peer until the new handshake says whether the peer restarted (a new session).
            startClient(now);
        }
    }

    private void retransmit(Association a, long now) {
        if (now - a.started > handshakeTimeout) {
            dtls.countHandshakeTimeouts();
            removePending(a);
            if (a == dial) {
                dial = null;
                retryAt = now + pingInterval;
            }
            return;
        }
        if (now - a.nextRetransmit < 0 || a.engine.getHandshakeStatus() != HandshakeStatus.NEED_UNWRAP) {
            return;
        }
        a.rto = Math.min(a.rto * 2, MAX_RTO_NANOS);
        dtls.countRetransmissions();
        if (a == dial && !a.heardAny && a.firstHello != null) {
            // The JDK's engine does not resend its very first ClientHello (it went to a port nobody
            // had bound yet, or was lost): send the same bytes again. Not a fresh engine's hello: a
            // cookie that comes late, for the first one, must still fit the hello it answers.
            netOut.clear();
            netOut.put(a.firstHello).flip();
            transmit(a.address);
            a.nextRetransmit = now + a.rto;
            return;
        }
        if (a == dial && !a.heardAny) {
            // no first hello to resend: start over with a fresh engine, which sends a new one
            long rto = a.rto;
            dtls.countUnfinished();
            startClient(now);
            if (dial != null) {
                dial.rto = rto;
                dial.nextRetransmit = now + rto;
            }
            return;
        }
        try {
            handshake(a, HandshakeStatus.NEED_WRAP, now);
        } catch (SSLException e) {
            failed(a, e, now);
        }
        a.nextRetransmit = now + a.rto;
    }
}
