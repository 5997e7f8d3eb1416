package io.spectrum.hil.hw;

import io.spectrum.hil.HilSuite;
import io.spectrum.testing.Tools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

/**
 * The conformance suite against an emulated board running on an aarch64 Java runtime under
 * qemu-user (the Pi's architecture). The runtime is built by hw-tests/scripts/arm64-runtime.sh when
 * it is not cached. Where qemu-user or the aarch64 binutils are not installed, or the runtime cannot be
 * built, the test is skipped with the reason printed; under CI (env CI=true) each of these fails it.
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
        Path boardTmp = HilJUnit.workDir("emulated-aarch64").resolve("board-tmp");
        DynamicTest nativeLib = DynamicTest.dynamicTest("jserialcomm-native-is-aarch64", () -> {
            // the board opened its serial port, so jSerialComm extracted its native library into the
            // board's private tmpdir: it must be the Linux/armv8_64 build (ELF e_machine 0xB7)
            Path lib;
            try (Stream<Path> files = Files.walk(boardTmp)) {
                lib = files.filter(f -> f.getFileName().toString().equals("libjSerialComm.so")).findFirst()
                        .orElseThrow(() -> new AssertionError("no libjSerialComm.so under " + boardTmp));
            }
            byte[] h = Files.readAllBytes(lib);
            Assertions.assertEquals(0x7F, h[0] & 0xFF, "ELF magic");
            Assertions.assertEquals(2, h[4], "ELFCLASS64");
            Assertions.assertEquals(0xB7, (h[18] & 0xFF) | (h[19] & 0xFF) << 8, "e_machine of " + lib + " (0xB7 = aarch64)");
        });
        Stream<DynamicTest> suite = HilJUnit.suite(target, HilSuite.standard());
        return Stream.concat(suite, Stream.of(nativeLib)).onClose(suite::close);
    }

    static Path runtime() throws Exception {
        Tools.require("qemu-aarch64-static", "qemu-user-static", "the emulated aarch64 board's JVM runs under qemu-user");
        Tools.require("aarch64-linux-gnu-objcopy", "binutils-aarch64-linux-gnu", "the aarch64 runtime is built with the aarch64 binutils");
        Path script = moduleDir().resolve("scripts").resolve("arm64-runtime.sh");
        Path log = HilJUnit.reportsDir().getParent().resolve("hil").resolve("arm64-runtime.log");
        try {
            return Arm64Runtime.ensure(script, log);
        } catch (Exception e) {
            Tools.skipUnlessCi("the aarch64 runtime could not be built: " + e.getMessage());
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
