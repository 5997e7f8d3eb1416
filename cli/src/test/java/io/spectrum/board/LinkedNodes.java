package io.spectrum.board;

import io.spectrum.runtime.CapsProbe;
import io.spectrum.link.Link;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.TlvWriter;

import java.util.function.BooleanSupplier;

/**
 * Two NarrowNodes joined by a real link pair (UDP loopback or a serial line), driven from the test
 * thread with one ManualClock, each with the $node/caps liveness probe wired in. The "host" node
 * subscribes; the "board" node produces.
 */
final class LinkedNodes implements AutoCloseable {
    final ManualClock clock = new ManualClock(0);
    // the link tests write the board's plain (undeclared) vertices remotely; the declaration gate has its own tests
    final NarrowNode board = new NarrowNode(NodeConfig.builder().clock(clock).staleGraceNanos(60_000_000_000L)
            .remoteWritesToUndeclared(true).build());
    final NarrowNode host = new NarrowNode(NodeConfig.builder().clock(clock).remoteWritesToUndeclared(true).build());
    final CapsProbe boardProbe = new CapsProbe(board, 2, 8);
    final CapsProbe hostProbe = new CapsProbe(host, 2, 8);
    Link boardLink;
    Link hostLink;
    /** Set to freeze the host process (it neither polls nor runs timers). */
    boolean hostFrozen;
    /** A relay in the middle (UDP), pumped with the nodes; null for serial. */
    UdpRelay relay;
    private final byte[] buf = new byte[64];
    private final TlvWriter w = new TlvWriter(4);

    void join(Link boardSide, Link hostSide) {
        boardLink = boardSide;
        hostLink = hostSide;
        board.attach(boardSide);
        host.attach(hostSide);
        boardProbe.install(boardSide);
        hostProbe.install(hostSide);
    }

    void pumpOnce() {
        board.poll();
        board.tick();
        boardProbe.sweep();
        if (relay != null) {
            relay.pump();
        }
        if (!hostFrozen) {
            host.poll();
            host.tick();
            hostProbe.sweep();
        }
        if (relay != null) {
            relay.pump();
        }
    }

    /** Pumps until {@code done} holds (at most 2000 rounds with a 1 ms pause when needed). */
    boolean pumpUntil(BooleanSupplier done) throws InterruptedException {
        for (int i = 0; i < 2000; i++) {
            pumpOnce();
            if (done.getAsBoolean()) {
                return true;
            }
            if (i > 20) {
                Thread.sleep(1);
            }
        }
        return false;
    }

    /** Like {@link #pumpUntil} but moves the clock 50 ms per round, so pings and reopen backoffs fire. */
    boolean pumpUntilAdvancing(BooleanSupplier done) throws InterruptedException {
        for (int i = 0; i < 400; i++) {
            clock.advanceMillis(50);
            pump(3);
            if (done.getAsBoolean()) {
                return true;
            }
        }
        return false;
    }

    void pump(int rounds) throws InterruptedException {
        for (int i = 0; i < rounds; i++) {
            pumpOnce();
            if (i % 10 == 9) {
                Thread.sleep(1);
            }
        }
    }

    /** Moves the clock in steps, pumping, so liveness timers fire as they would in real time. */
    void advance(long millis, long stepMillis) throws InterruptedException {
        for (long t = 0; t < millis; t += stepMillis) {
            clock.advanceMillis(stepMillis);
            pump(3);
        }
    }

    void boardWrite(NodePath p, long v) {
        w.wrap(buf, 0, buf.length).value(v, 2);
        board.write(p, buf, 0, w.length());
    }

    long hostValue(NodePath p) {
        byte[] out = new byte[16];
        int n = host.read(p, out, 0, out.length);
        if (n < 6) {
            return -1;
        }
        return (out[4] & 0xFF) | (out[5] & 0xFF) << 8;
    }

    @Override
    public void close() {
        if (boardLink != null) {
            boardLink.close();
        }
        if (hostLink != null) {
            hostLink.close();
        }
        if (relay != null) {
            try {
                relay.close();
            } catch (java.io.IOException ignored) {
                // test teardown
            }
        }
    }
}
