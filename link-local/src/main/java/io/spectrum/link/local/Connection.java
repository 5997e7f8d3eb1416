package io.spectrum.link.local;

import io.spectrum.wire.Bytes;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One stream connection of a {@link LocalLink}: its peer handle, its state, the receive buffer the
 * length-prefixed frames are cut from, the bytes being written and its outbound {@link LaneQueues}.
 * Driven by the link's one thread.
 */
final class Connection {
    static final int HELLO = 0;
    static final int OPEN = 1;
    static final int CLOSING = 2;
    static final int CLOSED = 3;

    /** {@link #nextFrame} answers: the buffer holds no whole frame yet / the length prefix is bad. */
    static final int NEED_MORE = -1;
    static final int BAD_LENGTH = -2;

    final int peer;
    final SocketChannel channel;
    final LaneQueues lanes;
    SelectionKey key;
    int state;
    long openedAt;
    long closingSince;
    /** When {@code LocalLink.disconnect} asked to close once the queued frames are written; -1: not asked. */
    long drainingSince = -1;
    boolean noticeQueued;
    int noticeReason;
    boolean upReported;
    boolean readable = true;
    String name;
    /** Whether the link may send this connection its closing notice (the bus, or a peer that announced itself). */
    boolean notices;
    /** Whether a frame was read yet (without a required hello, the first is checked for one). */
    boolean firstSeen;

    final byte[] rx;
    private final ByteBuffer rxBuf;
    private int start;
    private int end;
    int frameOffset;

    /** Committed bytes (length prefixes and frames) waiting for the socket; kept flipped (read mode). */
    final ByteBuffer out;
    /** On the link's list of connections to write at its next flush. */
    boolean dirty;
    private boolean writeInterest;

    Connection(int peer, SocketChannel channel, int state, long now, LocalLinkConfig config, String linkName) {
        this.peer = peer;
        this.channel = channel;
        this.state = state;
        this.openedAt = now;
        int cap = Math.max(4 + config.maxFrame, 64 * 1024);
        this.rx = new byte[cap];
        this.rxBuf = ByteBuffer.wrap(rx);
        this.out = ByteBuffer.allocate(cap).order(ByteOrder.LITTLE_ENDIAN);
        this.out.flip();
        this.lanes = new LaneQueues(config, linkName + " peer " + peer);
    }

    boolean isLive() {
        return state == HELLO || state == OPEN;
    }

    /**
     * The next whole frame in the receive buffer: its length (its bytes at {@link #frameOffset},
     * consumed), {@link #NEED_MORE} or {@link #BAD_LENGTH} (below 4 or above {@code maxFrame}).
     */
    int nextFrame(int maxFrame) {
        int avail = end - start;
        if (avail < 4) {
            return NEED_MORE;
        }
        long len = Bytes.u32(rx, start);
        if (len < 4 || len > maxFrame) {
            return BAD_LENGTH;
        }
        if (avail < 4 + len) {
            return NEED_MORE;
        }
        frameOffset = start + 4;
        start += 4 + (int) len;
        if (start == end) {
            start = end = 0; // nothing buffered: the next read starts at the front (the frame's bytes stay put)
        }
        return (int) len;
    }

    /** True when bytes are buffered that may hold another whole frame. */
    boolean buffered() {
        return end - start >= 4;
    }

    /**
     * Reads what the socket has into the receive buffer (compacting first when the tail is full).
     * Must not be called while a handler holds a frame of this buffer.
     *
     * @return bytes read, 0 when none, -1 at EOF
     */
    int read() throws IOException {
        if (end == rx.length || (start > 0 && rx.length - end < 4 + 256)) {
            System.arraycopy(rx, start, rx, 0, end - start);
            end -= start;
            start = 0;
        }
        rxBuf.limit(rx.length).position(end);
        int n = channel.read(rxBuf);
        if (n > 0) {
            end += n;
        }
        return n;
    }

    /** Appends a length prefix and the frame to the committed bytes; false when there is no room. */
    boolean commit(byte[] buf, int off, int len) {
        out.compact();
        boolean room = out.remaining() >= 4 + len;
        if (room) {
            out.putInt(len).put(buf, off, len);
        }
        out.flip();
        return room;
    }

    boolean pendingOut() {
        return out.hasRemaining();
    }

    /**
     * Writes committed bytes; returns false when the socket took only part (or none) of them. Each
     * system call that wrote bytes is counted in {@code stats}.
     */
    boolean write(LocalLinkStats stats) throws IOException {
        while (out.hasRemaining()) {
            if (channel.write(out) == 0) {
                return false;
            }
            stats.onWrite();
        }
        return true;
    }

    /** Asks the link's selector for OP_WRITE while committed bytes wait for the socket. */
    void wantWrite(boolean on) {
        if (on != writeInterest && key != null && key.isValid()) {
            key.interestOps(on ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ);
            writeInterest = on;
        }
    }
}
