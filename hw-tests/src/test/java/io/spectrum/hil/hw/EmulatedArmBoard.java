package io.spectrum.hil.hw;

import io.spectrum.hil.HilSuite;
import io.spectrum.hil.scenario.StandardScenarios;
import io.spectrum.testing.Tools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.DynamicTest;

/**
 * The conformance suite against an emulated board on an ARM Java runtime under qemu-user. The
 * runtime is built by hw-tests/scripts/arm-runtime.sh when it is not cached. Where qemu-user or the
 * target's binutils are not installed, or the runtime cannot be built, the test is skipped with the
 * reason printed; under CI (env CI=true) each of these fails it.
 */
final class EmulatedArmBoard {
    /** What differs between the ARM targets: the tools and the ELF header of the serial native library. */
    record Arch(ArmRuntime runtime, String qemu, String binutils, String objcopy, int elfClass, int elfMachine,
                String machineName) {
    }

    static final Arch ARM64 = new Arch(ArmRuntime.ARM64, "qemu-aarch64-static", "binutils-aarch64-linux-gnu",
            "aarch64-linux-gnu-objcopy", 2, 0xB7, "aarch64");
    static final Arch ARMHF = new Arch(ArmRuntime.ARMHF, "qemu-arm-static", "binutils-arm-linux-gnueabihf",
            "arm-linux-gnueabihf-objcopy", 1, 0x28, "32-bit ARM");

    private EmulatedArmBoard() {
    }

    static Stream<DynamicTest> suite(Arch a) throws Exception {
        Path java = runtime(a);
        String name = "emulated-" + a.runtime().arch();
        BoardProcess launcher = new BoardProcess(java.toString(), System.getProperty("java.class.path"),
                List.of("-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:off"));
        EmulatedBoardTarget target = EmulatedBoardTarget.start(name, launcher, HilJUnit.workDir(name), Duration.ofSeconds(15));
        Path boardTmp = HilJUnit.workDir(name).resolve("board-tmp");
        DynamicTest nativeLib = DynamicTest.dynamicTest("jserialcomm-native-is-" + a.runtime().arch(), () -> {
            // the board opened its serial port, so jSerialComm extracted its native library into the
            // board's private tmpdir: it must be the build for the emulated CPU (ELF class and e_machine)
            Path lib;
            try (Stream<Path> files = Files.walk(boardTmp)) {
                lib = files.filter(f -> f.getFileName().toString().equals("libjSerialComm.so")).findFirst()
                        .orElseThrow(() -> new AssertionError("no libjSerialComm.so under " + boardTmp));
            }
            byte[] h = Files.readAllBytes(lib);
            Assertions.assertEquals(0x7F, h[0] & 0xFF, "ELF magic");
            Assertions.assertEquals(a.elfClass(), h[4], "ELF class (1 = 32-bit, 2 = 64-bit)");
            Assertions.assertEquals(a.elfMachine(), (h[18] & 0xFF) | (h[19] & 0xFF) << 8,
                    "e_machine of " + lib + " (" + a.machineName() + ")");
        });
        Stream<DynamicTest> suite = HilJUnit.suite(target, new HilSuite(StandardScenarios.all()));
        return Stream.concat(suite, Stream.of(nativeLib)).onClose(suite::close);
    }

    static Path runtime(Arch a) throws Exception {
        Tools.require(a.qemu(), "qemu-user-static", "the emulated " + a.machineName() + " board's JVM runs under qemu-user");
        Tools.require(a.objcopy(), a.binutils(), "the " + a.machineName() + " runtime is built with the target's binutils");
        Path script = moduleDir().resolve("scripts").resolve("arm-runtime.sh");
        Path log = HilJUnit.reportsDir().getParent().resolve("hil").resolve(a.runtime().arch() + "-runtime.log");
        try {
            return a.runtime().ensure(script, log);
        } catch (Exception e) {
            Tools.skipUnlessCi("the " + a.machineName() + " runtime could not be built: " + e.getMessage());
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
