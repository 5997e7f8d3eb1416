package io.spectrum.hil;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.LinkStats;
import io.spectrum.link.PeerListener;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * A board in this JVM: a NarrowNode with the demo vertices behind an in-memory link pair, driven
 * from the host side's polls. A {@code tamper} function sits on the board's transmit path so tests
 * can break the board on purpose and prove a scenario notices (negative controls).
 */
final class InProcessBoard implements BoardTarget {
    private final NarrowNode node = newBoardNode();
    /** A node with the stock board's declarations, like the firmware the suite targets. */
    private static NarrowNode newBoardNode() {
        NarrowNode n = new NarrowNode(NodeConfig.defaults());
        io.spectrum.board.Board.declare(n);
        return n;
    }

    private final Function<byte[], List<byte[]>> tamper;
    private final Function<byte[], byte[]> rxTamper;
    private final ArrayDeque<byte[]> toBoard = new ArrayDeque<>();
    private final ArrayDeque<byte[]> toHost = new ArrayDeque<>();
    private final TlvWriter w = new TlvWriter();
    private final byte[] buf = new byte[64];
    private long counter;
    private long nextPublish = System.nanoTime();

    private final Link boardSide = new QueueLink("board side") {
        @Override
        public int send(int peer, byte[] b, int off, int len) {
            toHost.addAll(tamper.apply(Arrays.copyOfRange(b, off, off + len)));
            return WireError.OK;
        }

        @Override
        public int poll(FrameHandler h, int max) {
            int n = 0;
            while (n < max && !toBoard.isEmpty()) {
                byte[] f = toBoard.poll();
                h.onFrame(this, 0, f, 0, f.length);
                n++;
            }
            return n;
        }
    };

    private final Link hostSide = new QueueLink("host side") {
        @Override
        public int send(int peer, byte[] b, int off, int len) {
            toBoard.add(rxTamper.apply(Arrays.copyOfRange(b, off, off + len)));
            return WireError.OK;
        }

        @Override
        public int poll(FrameHandler h, int max) {
            runBoard();
            int n = 0;
            while (n < max && !toHost.isEmpty()) {
                byte[] f = toHost.poll();
                h.onFrame(this, 0, f, 0, f.length);
                n++;
            }
            return n;
        }
    };

    InProcessBoard(Function<byte[], List<byte[]>> tamper) {
        this(tamper, f -> f);
    }

    /** With a second tamper on the board's receive path. */
    InProcessBoard(Function<byte[], List<byte[]>> tamper, Function<byte[], byte[]> rxTamper) {
        this.tamper = tamper;
        this.rxTamper = rxTamper;
        node.attach(boardSide);
        w.wrap(buf, 0, buf.length).value(0, 1);
        node.write(NodePath.of("/board/led"), buf, 0, w.length());
    }

    InProcessBoard() {
        this(List::of);
    }

    private void runBoard() {
        long now = System.nanoTime();
        if (now - nextPublish >= 0) {
            nextPublish = now + 50_000_000L;
            counter++;
            w.wrap(buf, 0, buf.length).value(counter, 4);
            node.write(NodePath.of("/board/counter"), buf, 0, w.length());
            w.wrap(buf, 0, buf.length).value(2000 + counter % 50, 2);
            node.write(NodePath.of("/board/temp"), buf, 0, w.length());
        }
        while (node.poll() > 0) {
            node.tick();
        }
    }

    @Override
    public String name() {
        return "in-process";
    }

    @Override
    public String describe() {
        return "NarrowNode in this JVM behind an in-memory link";
    }

    @Override
    public Link link() {
        return hostSide;
    }

    @Override
    public Duration timeout() {
        return Duration.ofMillis(500);
    }

    @Override
    public boolean canReset() {
        return false;
    }

    @Override
    public void reset() {
        throw new UnsupportedOperationException();
    }

    @Override
    public void close() {
        node.close();
    }

    private abstract static class QueueLink implements Link {
        private final String name;
        private final LinkStats stats = new LinkStats();

        QueueLink(String name) {
            this.name = name;
        }

        @Override
        public int id() {
            return 1;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public int maxFrame() {
            return 4096;
        }

        @Override
        public void setPeerListener(PeerListener listener) {
        }

        @Override
        public LinkStats stats() {
            return stats;
        }

        @Override
        public void close() {
        }
    }
}
