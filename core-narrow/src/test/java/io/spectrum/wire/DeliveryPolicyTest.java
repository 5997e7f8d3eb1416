package io.spectrum.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DeliveryPolicyTest {
    @Test
    void decodesEveryFieldOfTheReservedBitsWord() {
        int w = 0xFFC1;
        assertEquals(1, DeliveryPolicy.reliability(w));
        assertEquals(0, DeliveryPolicy.priority(w));
        assertFalse(DeliveryPolicy.durabilityRequest(w));
        assertEquals(DeliveryPolicy.CLASS_STREAM, DeliveryPolicy.deliveryClass(w));
        assertTrue(DeliveryPolicy.oneShot(w));
        assertTrue(DeliveryPolicy.suspended(w));
        assertEquals(0x3F, DeliveryPolicy.reserved(w));
    }

    @Test
    void priorityAndDurability() {
        int w = DeliveryPolicy.of(1, 5, true, 2, false, false);
        assertEquals(1, DeliveryPolicy.reliability(w));
        assertEquals(5, DeliveryPolicy.priority(w));
        assertTrue(DeliveryPolicy.durabilityRequest(w));
        assertEquals(2, DeliveryPolicy.deliveryClass(w));
        assertFalse(DeliveryPolicy.oneShot(w));
        assertEquals(0x0020, DeliveryPolicy.of(0, 0, true, 0, false, false));
    }

    @Test
    void withSuspendedTouchesOnlyBit9AndCarriesReservedBits() {
        assertEquals(0xFFC1, DeliveryPolicy.withSuspended(0xFDC1, true));
        assertEquals(0xFDC1, DeliveryPolicy.withSuspended(0xFFC1, false));
        assertEquals(0x0200, DeliveryPolicy.withSuspended(0, true));
        assertEquals(0x0021, DeliveryPolicy.masked(0x0221));
        assertEquals(0x0121, DeliveryPolicy.masked(0x0321)); // one_shot stays in the comparison
    }
}
