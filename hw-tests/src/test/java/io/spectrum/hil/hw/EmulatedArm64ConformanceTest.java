package io.spectrum.hil.hw;

import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

/** The conformance suite against an emulated board on an aarch64 runtime under qemu-aarch64 (64-bit Pi OS). */
class EmulatedArm64ConformanceTest {
    @TestFactory
    @Timeout(600)
    Stream<DynamicTest> emulatedBoardOnAarch64UnderQemu() throws Exception {
        return EmulatedArmBoard.suite(EmulatedArmBoard.ARM64);
    }
}
