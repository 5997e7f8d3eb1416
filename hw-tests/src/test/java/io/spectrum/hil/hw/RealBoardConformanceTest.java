package io.spectrum.hil.hw;

import io.spectrum.hil.HilSuite;
import io.spectrum.hil.scenario.StandardScenarios;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The conformance suite against a real board: {@code mvn -pl hw-tests -am verify
 * -Dspectrum.hil.port=/dev/ttyUSB0 [-Dspectrum.hil.resetPin=17]}. Not run without the property.
 */
@EnabledIfSystemProperty(named = RealBoardTarget.PORT, matches = ".+")
class RealBoardConformanceTest {
    @TestFactory
    @Timeout(600)
    Stream<DynamicTest> realBoard() throws Exception {
        return HilJUnit.suite(RealBoardTarget.fromSystemProperties(), new HilSuite(StandardScenarios.all()));
    }
}
