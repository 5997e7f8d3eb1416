package io.spectrum.hil.hw;

import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

/**
 * The conformance suite against an emulated board on a 32-bit armhf runtime under qemu-arm: what
 * 32-bit Raspberry Pi OS (and an older Pi) runs.
 */
class EmulatedArmhfConformanceTest {
    @TestFactory
    @Timeout(900)
    Stream<DynamicTest> emulatedBoardOn32BitArmUnderQemu() throws Exception {
        return EmulatedArmBoard.suite(EmulatedArmBoard.ARMHF);
    }
}
