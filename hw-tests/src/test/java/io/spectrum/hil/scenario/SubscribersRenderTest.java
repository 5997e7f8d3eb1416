package io.spectrum.hil.scenario;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spectrum.hil.oracle.Tlv;
import io.spectrum.hil.oracle.Wire;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The suite's RFC-0035 §5.1 rendering must be the one every core renders (the §10 vector). */
class SubscribersRenderTest {
    static final String POLICY_SUSPENDED_VECTOR =
            "044028000600070006636c69656e740b40190002000f0064656c69766572795f706f6c696379010002000002";

    @Test
    void rule3AppendsSettingsWithTheSuspendedWord() {
        Tlv plain = Tlv.decode(Wire.subscriber("/client", null));
        byte[] rendered = Subscribers.render(plain, true);
        assertEquals(POLICY_SUSPENDED_VECTOR, HexFormat.of().formatHex(rendered));
        assertEquals(44, rendered.length);
    }

    @Test
    void rule2LeavesARecordWithoutWordUnchanged() {
        Tlv plain = Tlv.decode(Wire.subscriber("/client", null));
        assertArrayEquals(plain.encoded(), Subscribers.render(plain, false));
    }

    @Test
    void rule1FlipsOnlyBit9OfAnExistingWord() {
        Tlv durable = Tlv.decode(Wire.subscriber("/client", 0x0021));
        byte[] on = Subscribers.render(durable, true);
        assertArrayEquals(Wire.subscriber("/client", 0x0221), on);
        assertArrayEquals(durable.encoded(), Subscribers.render(Tlv.decode(on), false));
        assertEquals(0x0221, Subscribers.policyOf(Tlv.decode(on)));
    }

    @Test
    void rule3AppendsThePairToAnExistingSettingsWithoutWord() {
        byte[] withCompact = Wire.build(w -> w.begin(0x04).raw(Wire.path("/client")).begin(0x0B)
                .raw(Wire.name("delivery_compact")).value(0, 1).end().end());
        byte[] expected = Wire.build(w -> w.begin(0x04).raw(Wire.path("/client")).begin(0x0B)
                .raw(Wire.name("delivery_compact")).value(0, 1)
                .raw(Wire.name("delivery_policy")).value(0x0200, 2).end().end());
        assertArrayEquals(expected, Subscribers.render(Tlv.decode(withCompact), true));
    }
}
