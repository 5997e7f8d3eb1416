package io.spectrum.examples.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spectrum.wire.WireError;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link NodeBasics}: what a suspended subscription misses, and what the declaration refuses. */
class NodeBasicsTest {
    @Test
    void theSuspendedWriteIsNotDeliveredNorReplayedAndTheOutOfRangeWriteIsRefused() {
        NodeBasics.Outcome o = NodeBasics.run();
        assertEquals(List.of("seq 1: 21.5 °C", "seq 3: 22.5 °C"), o.delivered());
        assertEquals(WireError.SCHEMA_TYPE_MISMATCH, o.refused());
        assertEquals(3, o.sequence(), "the suspended write spent seq 2; the refused one spent nothing");
    }
}
