package io.spectrum.hil.hw;

import io.spectrum.hil.HilSuite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

/**
 * The conformance suite against an emulated board running on an aarch64 Java runtime under
 * qemu-user (the Pi's architecture). The runtime is built by hw-tests/scripts/arm64-runtime.sh when
 * it is not cached. Under CI (env CI=true) a runtime that cannot be built fails the test; elsewhere
 * it is reported as skipped with the reason.
 */
class EmulatedArm64ConformanceTest {
    @TestFactory
    @Timeout(600)
    Stream<DynamicTest> emulatedBoardOnAarch64UnderQemu() throws Exception {
        Path java = runtime();
        BoardProcess launcher = new BoardProcess(java.toString(), System.getProperty("java.class.path"),
                List.of("-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:off"));
        EmulatedBoardTarget target = EmulatedBoardTarget.start("emulated-aarch64", launcher,
                HilJUnit.workDir("emulated-aarch64"), Duration.ofSeconds(15));
        return HilJUnit.suite(target, HilSuite.standard());
    }

    static Path runtime() throws Exception {
        Path script = moduleDir().resolve("scripts").resolve("arm64-runtime.sh");
        Path log = HilJUnit.reportsDir().getParent().resolve("hil").resolve("arm64-runtime.log");
        try {
            return Arm64Runtime.ensure(script, log);
        } catch (Exception e) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError("CI=true and the aarch64 runtime could not be built: " + e.getMessage(), e);
            }
            Assumptions.abort("aarch64 runtime not available (" + e.getMessage() + ")");
            throw e;
        }
    }

    static Path moduleDir() {
        Path here = Path.of(System.getProperty("user.dir"));
        if (Files.exists(here.resolve("scripts"))) {
            return here;
        }
        return Path.of(System.getProperty("spectrum.root"), "hw-tests");
    }
}
