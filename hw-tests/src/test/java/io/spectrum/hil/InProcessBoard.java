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
import io.spectrum.link.Link;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.testing.MemoryLink;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
    /**
     * [0] the board's side, [1] the host's: nothing captured (a long run keeps nothing), no liveness
     * reported (the host side's liveness probe leaves the board alone, as over a link without a timeout).
     */
    private final MemoryLink[] pair = MemoryLink.pair(1, 1, 4096);
    private final MemoryLink boardSide = pair[0].record(false).tracksLiveness(false);
    private final MemoryLink hostSide = pair[1].record(false).tracksLiveness(false);

    InProcessBoard(Function<byte[], List<byte[]>> tamper) {
        this(tamper, f -> f);
    }

    /** With a second tamper on the board's receive path. */
    InProcessBoard(Function<byte[], List<byte[]>> tamper, Function<byte[], byte[]> rxTamper) {
        boardSide.transmit(tamper);
        hostSide.transmit(f -> List.of(rxTamper.apply(f)));
        hostSide.beforePoll(this::runBoard); // the board runs when the host side reads, on its thread
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
}
