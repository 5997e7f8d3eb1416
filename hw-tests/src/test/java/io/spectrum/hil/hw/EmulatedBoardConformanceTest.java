package io.spectrum.hil.hw;

import io.spectrum.hil.HilSuite;
import io.spectrum.hil.scenario.StandardScenarios;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

/** The conformance suite against an emulated board running on this machine's JVM. */
class EmulatedBoardConformanceTest {
    @TestFactory
    @Timeout(300)
    Stream<DynamicTest> emulatedBoardOnNativeJvm() throws Exception {
        EmulatedBoardTarget target = EmulatedBoardTarget.start("emulated", BoardProcess.sameJvm(),
                HilJUnit.workDir("emulated"), Duration.ofSeconds(5));
        return HilJUnit.suite(target, new HilSuite(StandardScenarios.all()));
    }
}
