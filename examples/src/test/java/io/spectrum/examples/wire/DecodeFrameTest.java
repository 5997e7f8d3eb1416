package io.spectrum.examples.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spectrum.vectors.Vector;
import io.spectrum.vectors.VectorLoader;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** {@link DecodeFrame} on the conformance vector it names, on a frame cut short and on a non-FWD frame. */
class DecodeFrameTest {
    private static Vector fwdRead() {
        return VectorLoader.loadClasspath(VectorLoader.LIBTRACER_V1).stream()
                .filter(v -> v.id().equals("fwd/fwd-read")).findFirst().orElseThrow();
    }

    @Test
    void theFwdReadVectorIsAReadOfSensorTempRepliedToReplyEp() {
        Vector v = fwdRead();
        assertEquals(HexFormat.of().withUpperCase().formatHex(v.bytes()), DecodeFrame.FWD_READ_HEX,
                "the example's default frame is the vector");
        DecodeFrame d = new DecodeFrame();
        assertEquals("FWD READ /sensor/temp from /reply-ep (4 TLVs)", d.describe(v.bytes()));
        // the same flyweights, re-pointed: a frame cut short is a typed refusal, then a good frame decodes again
        assertEquals("refused: tr::frame::truncated at offset 0", d.describe(Arrays.copyOf(v.bytes(), 20)));
        assertEquals("VALUE (1 TLVs)", d.describe(HexFormat.of().parseHex("0100020000D7")));
        assertEquals("FWD READ /sensor/temp from /reply-ep (4 TLVs)", d.describe(v.bytes()));
    }
}
