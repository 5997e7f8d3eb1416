package io.spectrum.link.serial;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.FrameShape;
import io.spectrum.link.LivenessProbe;
import io.spectrum.link.Link;
import io.spectrum.link.LinkCounters;
import io.spectrum.link.LinkStats;
import io.spectrum.link.PeerLiveness;
import io.spectrum.link.PeerListener;
import io.spectrum.link.Readiness;
import io.spectrum.time.Clock;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.WireError;

/**
 * A libtracer link over a serial line. The peer is always 0 (a UART has one other end). Frames are
 * carried as {@code COBS(frame ‖ crc32c_le(frame)) 0x00} ({@link CobsFramer}, {@link CobsDeframer});
 * see docs/links.md for the bytes.
 *
 * <p>Port life cycle, driven from {@link #poll}: the port is opened at the first poll. When a read
 * or write fails (USB adapter unplugged, pty closed) the link closes the port, reports
 * {@code onPeerDown} and tries to reopen it after a backoff (doubling up to a ceiling) read from the
 * injected clock. After a (re)open the link sends a lone delimiter, so the far end drops whatever
 * partial frame it was holding, and reports {@code onPeerUp} when the first good frame arrives.
 * With a peer timeout configured, a peer that stays silent on an open port is reported down too,
 * after being offered to the {@link LivenessProbe} at the ping interval.
 *
 * <p>Send queue: a frame the line cannot take yet waits in a small fixed queue
 * ({@link SerialLinkConfig#sendQueueFrames}) instead of being refused. With
 * {@link SerialLinkConfig#controlYields} (the default) data goes first: a FWD WRITE (a delivery, a
 * publish) leaves before queued control traffic (READ and AWAIT requests, REPLYs: liveness pings,
 * tree walks, subscribe answers), so a host probing and walking a board over a slow UART does not
 * cost the board its publish rate; control may hold at most a quarter of the queue, and while data waits a
 * control frame goes after {@link #CONTROL_SHARE} times its size in data bytes (so control keeps a
 * quarter of a busy line: liveness answers are control and must not starve). A frame on the wire is never cut or reordered mid-way.
 *
 * <p>Counters: CRC and COBS failures are {@code droppedCorrupt}, frames over {@code maxFrame} are
 * {@code droppedOversize}, frames with a good CRC that are not one libtracer frame are
 * {@code droppedInvalid}. Allocation-free per frame; one thread drives the link.
 */
public final class SerialLink implements Link {
    private final int id;
    private final String name;
    private final SerialPortIo port;
    private final Clock clock;
    private final int maxFrame;
    private final long reopenInitial;
    private final long reopenMax;
    private final int writeRetries;

    private final CobsDeframer deframer;
    private final byte[] rxChunk;
    private int rxOff;
    private int rxLen;
    private final byte[] tx;
    private int txOff;
    private int txLen;

    /** While data waits, a control frame goes after this many times its size in data bytes. */
    static final int CONTROL_SHARE = 3;
    private final boolean controlYields;
    private final byte[][] qFrame;
    private final int[] qLen;
    private final long[] qSeq;
    private final boolean[] qData;
    private int qUsed;
    private int qControl;
    private long qNext;
    private long controlDebt;

    private volatile boolean portOpen;
    private volatile boolean portFailed;
    private boolean everOpened;
    private long nextOpenAt;
    private long backoff;
    /** One peer (handle 0): the far end of the wire; probed while down too (it may have restarted). */
    private final PeerLiveness liveness;

    private final LinkCounters stats = new LinkCounters();
    private volatile long openFailures;
    private long sendOversize;
    private volatile boolean closed;

    /**
     * A link over {@code port} that opens it on its first poll (retrying with backoff while it is
     * not there); every buffer and the send queue are allocated here from {@code config}, so
     * nothing is allocated per frame afterwards.
     */
    public SerialLink(int id, SerialPortIo port, SerialLinkConfig config, Clock clock) {
        this.id = id;
        this.port = port;
        this.clock = clock;
        this.name = "serial " + port.describe();
        this.maxFrame = config.maxFrame;
        this.reopenInitial = config.reopenInitialNanos;
        this.reopenMax = config.reopenMaxNanos;
        this.writeRetries = config.writeRetries;
        this.deframer = new CobsDeframer(maxFrame);
        this.rxChunk = new byte[config.readChunk];
        this.tx = new byte[CobsFramer.maxEncodedLength(maxFrame)];
        this.controlYields = config.controlYields;
        int q = config.sendQueueFrames;
        this.qFrame = new byte[q][maxFrame];
        this.qLen = new int[q];
        this.qSeq = new long[q];
        this.qData = new boolean[q];
        this.backoff = reopenInitial;
        this.nextOpenAt = clock.nanoTime();
        this.liveness = new PeerLiveness(this, 1, config.peerTimeoutNanos, config.pingIntervalNanos, true,
                 clock.nanoTime());
    }

    /** A link on a real UART through jSerialComm ({@code --serial DEVICE --baud N}). */
    public static SerialLink open(int id, String device, SerialLinkConfig config, Clock clock) {
        SerialLink link = new SerialLink(id, new JSerialCommPort(device, config.baud), config, clock);
        link.ensureOpen(clock.nanoTime());
        return link;
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public String name() {
        return name;
    }

    /** True while the port is open (false between an unplug and the next successful reopen). */
    public boolean isPortOpen() {
        return portOpen;
    }

    /**
     * True while the far end of the wire (peer 0) is considered alive: heard within the peer
     * timeout.
     */
    public boolean isPeerUp() {
        return liveness.isUp(0);
    }

    @Override
    public boolean isPeerUp(int peer) {
        return peer == 0 && liveness.isUp(0);
    }

    /**
     * While the port is not open: why its last open failed ({@link SerialPortIo#openFailure}), or
     * null when the port cannot tell; null while it is open.
     */
    public String openFailure() {
        return portOpen ? null : port.openFailure();
    }

    /** The longest wait between two attempts to open a port that is not there (the backoff's ceiling). */
    public long reopenMaxMillis() {
        return reopenMax / 1_000_000L;
    }

    /** Failed open attempts so far (port absent while reopening). */
    public long openFailures() {
        return openFailures;
    }

    /** The deframer, for its finer counters (bad COBS, CRC mismatch, oversize, empty). */
    public CobsDeframer deframer() {
        return deframer;
    }

    /**
     * Frames and writes one frame. The line may not take it all at once: the unsent rest stays in the
     * link and is pushed on by the next {@code send} or {@code poll}, so a frame is never cut. While
     * a previous frame is still pending, {@code send} answers FLOW_BACKPRESSURE and takes nothing.
     */
    @Override
    public int send(int peer, byte[] buf, int off, int len) {
        if (closed || peer != 0 || !portOpen || portFailed) {
            stats.countSendRefused();
            return WireError.TRANSPORT_DOWN;
        }
        if (len > maxFrame) {
            sendOversize++;
            stats.setOversize(deframer.oversize() + sendOversize);
            return WireError.FRAME_INVALID;
        }
        if (txOff < txLen && !flushTx()) {
            stats.countSendRefused();
            return WireError.TRANSPORT_DOWN;
        }
        if (txOff < txLen || qUsed > 0) {
            if (!enqueue(buf, off, len)) {
                stats.countSendRefused();
                return WireError.FLOW_BACKPRESSURE;
            }
            stats.countOut(len);
            return pumpQueue() ? WireError.OK : WireError.TRANSPORT_DOWN;
        }
        if (controlYields && FwdView.peekOpcode(buf, off, len) != FwdView.OP_WRITE) {
            controlDebt = (long) CONTROL_SHARE * len; // control on the wire: data earns the next one
        }
        txLen = CobsFramer.encode(buf, off, len, tx, 0, tx.length);
        txOff = 0;
        stats.countOut(len);
        if (!flushTx()) {
            return WireError.TRANSPORT_DOWN;
        }
        return WireError.OK;
    }

    /** Queues a frame the line cannot take yet; false when its class has no room. */
    private boolean enqueue(byte[] buf, int off, int len) {
        final boolean data = FwdView.peekOpcode(buf, off, len) == FwdView.OP_WRITE;
        final int cap = qFrame.length;
        if (qUsed == cap || (!data && controlYields && qControl >= Math.max(1, cap / 4))) {
            return false;
        }
        int i = 0;
        while (qLen[i] > 0) {
            i++;
        }
        System.arraycopy(buf, off, qFrame[i], 0, len);
        qLen[i] = len;
        qSeq[i] = qNext++;
        qData[i] = data;
        qUsed++;
        if (!data) {
            qControl++;
        }
        return true;
    }

    /** Moves queued frames onto the line while it takes them; false when the port failed. */
    private boolean pumpQueue() {
        while (txOff == txLen && qUsed > 0) {
            int i = nextQueued();
            txLen = CobsFramer.encode(qFrame[i], 0, qLen[i], tx, 0, tx.length);
            txOff = 0;
            qLen[i] = 0;
            qUsed--;
            if (!qData[i]) {
                qControl--;
            }
            if (!flushTx()) {
                return false;
            }
        }
        return true;
    }

    /**
     * The queued frame to send next: without priority the oldest; with it the oldest data frame,
     * except that a waiting control frame goes once the data sent since the last one is
     * {@link #CONTROL_SHARE} times that control frame's size (control keeps ~1/(1+share) of a busy line).
     */
    private int nextQueued() {
        int oldest = -1;
        int oldestData = -1;
        for (int i = 0; i < qLen.length; i++) {
            if (qLen[i] == 0) {
                continue;
            }
            if (oldest < 0 || qSeq[i] < qSeq[oldest]) {
                oldest = i;
            }
            if (qData[i] && (oldestData < 0 || qSeq[i] < qSeq[oldestData])) {
                oldestData = i;
            }
        }
        if (!controlYields || oldestData < 0) {
            return oldest;
        }
        if (oldestData != oldest && controlDebt <= 0) {
            controlDebt = (long) CONTROL_SHARE * qLen[oldest]; // a control frame's turn: data earns the next
            return oldest;
        }
        controlDebt -= qLen[oldestData];
        return oldestData;
    }

    private void clearQueue() {
        for (int i = 0; i < qLen.length; i++) {
            qLen[i] = 0;
        }
        qUsed = 0;
        qControl = 0;
        controlDebt = 0;
    }

    /** True when a frame is still partly unsent or queued (the line is slower than the sender). */
    public boolean hasPendingWrite() {
        return txOff < txLen || qUsed > 0;
    }

    /** Frames waiting in the send queue. */
    public int queuedFrames() {
        return qUsed;
    }

    /** Pushes pending bytes; false when the port failed. Gives up quietly when the line is full. */
    private boolean flushTx() {
        int idle = 0;
        while (txOff < txLen) {
            int n = port.write(tx, txOff, txLen - txOff);
            if (n < 0) {
                portFailed = true;
                txOff = 0;
                txLen = 0;
                return false;
            }
            if (n == 0) {
                if (++idle > writeRetries) {
                    return true;
                }
                Thread.yield();
            } else {
                idle = 0;
                txOff += n;
            }
        }
        return true;
    }

    @Override
    public int poll(FrameHandler handler, int maxFrames) {
        if (closed) {
            return 0;
        }
        long now = clock.nanoTime();
        // Away (frozen, suspended) longer than the timeout: the far end has timed us out.
        liveness.polled(now);
        if (portFailed) {
            portLost(now);
        }
        if (!portOpen && !ensureOpen(now)) {
            return 0;
        }
        if ((txOff < txLen && !flushTx()) || !pumpQueue()) {
            portLost(now);
            return 0;
        }
        int delivered = 0;
        while (delivered < maxFrames) {
            if (rxOff == rxLen) {
                int n = port.read(rxChunk, 0, rxChunk.length);
                if (n < 0) {
                    portLost(now);
                    return delivered;
                }
                if (n == 0) {
                    break;
                }
                rxOff = 0;
                rxLen = n;
            }
            int used = deframer.consume(rxChunk, rxOff, rxLen - rxOff);
            rxOff += used;
            stats.setCorrupt(deframer.badCobs() + deframer.crcMismatch());
            stats.setOversize(deframer.oversize() + sendOversize);
            if (!deframer.hasFrame()) {
                continue;
            }
            byte[] f = deframer.frame();
            int len = deframer.frameLength();
            if (!FrameShape.isOneFrame(f, 0, len)) {
                stats.countInvalid();
                continue;
            }
            liveness.heard(0, now);
            stats.countIn(len);
            handler.onFrame(this, 0, f, 0, len);
            delivered++;
        }
        liveness.check(now);
        return delivered;
    }

    /** Opens the port when its backoff has passed; true when it is open. */
    private boolean ensureOpen(long now) {
        if (portOpen) {
            return true;
        }
        if (now - nextOpenAt < 0) {
            return false;
        }
        if (!port.open()) {
            openFailures++;
            nextOpenAt = now + backoff;
            backoff = Math.min(backoff * 2, reopenMax);
            return false;
        }
        backoff = reopenInitial;
        deframer.reset();
        rxOff = 0;
        rxLen = 0;
        portFailed = false;
        portOpen = true;
        if (everOpened) {
            stats.countReconnect();
        }
        everOpened = true;
        // A lone delimiter ends whatever partial frame the far end holds from before.
        tx[0] = 0;
        txOff = 0;
        txLen = 1;
        if (!flushTx()) {
            portLost(now);
            return false;
        }
        return true;
    }

    private void portLost(long now) {
        port.close();
        txOff = 0;
        txLen = 0;
        clearQueue();
        portOpen = false;
        portFailed = false;
        deframer.reset();
        rxOff = 0;
        rxLen = 0;
        nextOpenAt = now + backoff;
        backoff = Math.min(backoff * 2, reopenMax);
        liveness.down(0);
    }

    @Override
    public int maxFrame() {
        return maxFrame;
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

    /**
     * Wakes the loop from the port's data events ({@link SerialPortIo#setDataListener}); true when
     * the port signals arrivals. While the port is closed (reopen backoff) the loop's timer drives it.
     */
    @Override
    public boolean setReadiness(Readiness readiness) {
        return port.setDataListener(readiness::wake);
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
        closed = true;
        portOpen = false;
        port.close();
        liveness.down(0);
    }
}
