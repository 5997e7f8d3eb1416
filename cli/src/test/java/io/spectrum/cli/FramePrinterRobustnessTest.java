package io.spectrum.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.cli.output.FramePrinter;
import io.spectrum.vectors.Vector;
import io.spectrum.vectors.VectorLoader;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The printer copes with every vector and with whatever a mutated vector decodes to. */
class FramePrinterRobustnessTest {
    @Test
    void printsEveryVectorAndMutationsOfThem() {
        List<Vector> vectors = VectorLoader.loadDefault();
        FrameDecoder decoder = new FrameDecoder();
        TlvIndex idx = new TlvIndex(4096, 64);
        int printed = 0;
        for (Vector v : vectors) {
            if (v.reject()) {
                continue;
            }
            byte[] b = v.bytes();
            assertTrue(decoder.decode(b, 0, b.length, idx) == WireError.OK, v.id());
            String tree = FramePrinter.print(idx);
            assertTrue(tree.startsWith(TlvType.name(idx.type(0))), v.id() + "\n" + tree);
            printed++;
        }
        Random rnd = new Random(7);
        for (int i = 0; i < 20_000; i++) {
            Vector v = vectors.get(rnd.nextInt(vectors.size()));
            byte[] b = v.bytes().clone();
            b[rnd.nextInt(b.length)] ^= (byte) (1 << rnd.nextInt(8));
            if (decoder.decode(b, 0, b.length, idx) == WireError.OK) {
                try {
                    FramePrinter.print(idx);
                    printed++;
                } catch (RuntimeException e) {
                    throw new AssertionError("printer threw on " + java.util.HexFormat.of().formatHex(b), e);
                }
            }
        }
        assertTrue(printed > 1000, "printed " + printed);
    }
}
