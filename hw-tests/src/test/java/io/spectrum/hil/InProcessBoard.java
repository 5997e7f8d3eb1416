package io.spectrum.hil;

import com.pi4j.io.gpio.digital.DigitalState;
import com.pi4j.plugin.mock.provider.gpio.digital.MockDigitalInput;
import com.pi4j.plugin.mock.provider.gpio.digital.MockDigitalOutput;
import io.spectrum.board.app.AppHost;
import io.spectrum.board.decl.BoardFile;
import io.spectrum.board.decl.BoardFileError;
import io.spectrum.board.decl.BoardFileParser;
import io.spectrum.board.decl.BoardSetup;
import io.spectrum.hil.hw.EmulatedBoardTarget;
import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.LinkStats;
import io.spectrum.link.PeerListener;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.wire.WireError;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * A board in this JVM: a NarrowNode running the emulated board's file (the demo vertices, sims every
 * 50 ms, and the button and relay pins on pi4j's mock platform) behind an in-memory link pair, driven
 * from the host side's polls. A {@code tamper} function sits on the board's transmit path so tests
 * can break the board on purpose and prove a scenario notices (negative controls).
 */
final class InProcessBoard implements BoardTarget {
    private final NarrowNode node = new NarrowNode(NodeConfig.defaults());
    private final AppHost host;

    private final Function<byte[], List<byte[]>> tamper;
    private final Function<byte[], byte[]> rxTamper;
    private final ArrayDeque<byte[]> toBoard = new ArrayDeque<>();
    private final ArrayDeque<byte[]> toHost = new ArrayDeque<>();

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
        try (InputStream in = EmulatedBoardTarget.class.getResourceAsStream(EmulatedBoardTarget.BOARD_FILE)) {
            Path dir = Files.createTempDirectory("in-process-board"); // the mock-pin files (unused: pins are driven in this JVM)
            dir.toFile().deleteOnExit();
            BoardFile file = new BoardFileParser(50).parse("emulated-board.yaml",
                    new String(in.readAllBytes(), StandardCharsets.UTF_8), dir);
            host = BoardSetup.host(file, "in-process", List.of());
        } catch (IOException | BoardFileError e) {
            throw new IllegalStateException("the emulated board file: " + e.getMessage(), e);
        }
        host.install(node);
        node.attach(boardSide);
    }

    InProcessBoard() {
        this(List::of);
    }

    private void runBoard() {
        host.step(node, System.nanoTime());
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
    public boolean canDrivePins() {
        return true;
    }

    @Override
    public void drivePin(int bcm, boolean high) {
        host.pi4j().registry().get("spectrum-in-" + bcm, MockDigitalInput.class)
                .mockState(high ? DigitalState.HIGH : DigitalState.LOW);
    }

    @Override
    public boolean pinLevel(int bcm) {
        return host.pi4j().registry().get("spectrum-out-" + bcm, MockDigitalOutput.class).isHigh();
    }

    @Override
    public void close() {
        host.close();
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
