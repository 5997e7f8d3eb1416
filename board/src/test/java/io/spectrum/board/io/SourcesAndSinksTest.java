package io.spectrum.board.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.pi4j.io.gpio.digital.DigitalState;
import com.pi4j.plugin.mock.provider.gpio.digital.MockDigitalInput;
import com.pi4j.plugin.mock.provider.gpio.digital.MockDigitalOutput;
import com.pi4j.plugin.mock.provider.i2c.MockI2C;
import com.pi4j.plugin.mock.provider.pwm.MockPwm;
import io.spectrum.board.BoardFixture;
import io.spectrum.node.api.NodePath;
import io.spectrum.wire.WireError;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every source and sink of a board file, on pi4j's mock platform or on fake /sys and /proc files. */
class SourcesAndSinksTest {
    @TempDir
    Path tmp;

    @Test
    void gpioInputPublishesEachEdgeAndCountsThem() throws Exception {
        try (BoardFixture b = new BoardFixture("""
                platform: mock
                vertices:
                  - {path: /button, type: u8, range: [0, 1],
                     source: {kind: gpio-in, pin: 22, pull: up, edges: /button/edges}}
                """, tmp)) {
            MockDigitalInput pin = b.host.pi4j().registry().get("spectrum-in-22", MockDigitalInput.class);
            assertEquals(0, b.raw("/button"));
            pin.mockState(DigitalState.HIGH);
            b.step(0);
            assertEquals(1, b.raw("/button"));
            assertEquals(1, b.raw("/button/edges"));
            // two edges between loop turns: the level is the last, the counter has both
            pin.mockState(DigitalState.LOW);
            pin.mockState(DigitalState.HIGH);
            b.step(0);
            assertEquals(1, b.raw("/button"));
            assertEquals(3, b.raw("/button/edges"));
        }
    }

    @Test
    void aDebouncedInputPublishesOnceItsLevelHasHeld() throws Exception {
        try (BoardFixture b = new BoardFixture("""
                platform: mock
                vertices:
                  - {path: /door, type: u8, source: {kind: gpio-in, pin: 5, debounce: 40ms, edges: /door/edges}}
                """, tmp)) {
            MockDigitalInput pin = b.host.pi4j().registry().get("spectrum-in-5", MockDigitalInput.class);
            pin.mockState(DigitalState.HIGH); // a bouncing contact
            pin.mockState(DigitalState.LOW);
            pin.mockState(DigitalState.HIGH);
            b.step(0);
            assertEquals(0, b.raw("/door"), "still bouncing: nothing published yet");
            Thread.sleep(50); // the level holds past the debounce time
            b.step(50);
            assertEquals(1, b.raw("/door"));
            assertEquals(1, b.raw("/door/edges"), "one debounced change");
        }
    }

    @Test
    void aWritableVertexDrivesTheOutputPinAndReadsItBack() throws Exception {
        try (BoardFixture b = new BoardFixture("""
                platform: mock
                vertices:
                  - {path: /relay, type: u8, range: [0, 1], initial: 0,
                     sink: {kind: gpio-out, pin: 17, readback: /relay/state}}
                """, tmp)) {
            MockDigitalOutput pin = b.host.pi4j().registry().get("spectrum-out-17", MockDigitalOutput.class);
            assertEquals(DigitalState.LOW, pin.state());
            assertEquals(0, b.raw("/relay/state"));
            assertEquals(WireError.OK, b.write("/relay", 1));
            assertEquals(DigitalState.HIGH, pin.state());
            assertEquals(1, b.raw("/relay/state"));
            assertEquals(WireError.SCHEMA_TYPE_MISMATCH, b.write("/relay", 2), "outside 0..1: refused");
            assertEquals(DigitalState.HIGH, pin.state(), "a refused write drives nothing");
            assertEquals(WireError.OK, b.write("/relay", 0));
            assertEquals(DigitalState.LOW, pin.state());
            assertEquals(0, b.raw("/relay/state"));
            assertTrue(b.node.declaration(NodePath.of("/relay")).allows(io.spectrum.wire.AccessMask.WRITE));
        }
    }

    @Test
    void anActiveLowOutputIsInverted() throws Exception {
        try (BoardFixture b = new BoardFixture("""
                platform: mock
                vertices:
                  - {path: /relay, type: u8, sink: {kind: gpio-out, pin: 27, active-low: true}}
                """, tmp)) {
            MockDigitalOutput pin = b.host.pi4j().registry().get("spectrum-out-27", MockDigitalOutput.class);
            assertEquals(DigitalState.HIGH, pin.state(), "off is high on an active-low relay board");
            b.write("/relay", 1);
            assertEquals(DigitalState.LOW, pin.state());
        }
    }

    @Test
    void aPwmDutyCycleIsWritable() throws Exception {
        try (BoardFixture b = new BoardFixture("""
                platform: mock
                vertices:
                  - {path: /fan, type: u16, unit: "%", scale: 0.1, range: [0, 1000],
                     sink: {kind: pwm, channel: 0, frequency: 25000}}
                """, tmp)) {
            MockPwm pwm = b.host.pi4j().registry().get("spectrum-pwm-0", MockPwm.class);
            assertFalse(pwm.isOn());
            b.write("/fan", 425);
            assertTrue(pwm.isOn());
            assertEquals(42.5f, pwm.dutyCycle(), 0.001f);
            assertEquals(25000, pwm.frequency());
            b.write("/fan", 0);
            assertFalse(pwm.isOn());
        }
    }

    @Test
    void anI2cRegisterIsReadScaledAndInByteOrder() throws Exception {
        // a TMP102 at 0x48: register 0, 12 bits left-justified in 2 big-endian bytes, 0.0625 °C per bit
        try (BoardFixture b = new BoardFixture("""
                platform: mock
                vertices:
                  - {path: /tmp102, type: i16, unit: Cel, scale: 0.0625,
                     source: {kind: i2c, bus: 1, address: 0x48, register: 0, bytes: 2, order: big, shift: 4, period: 1s}}
                  - {path: /raw, type: u16,
                     source: {kind: i2c, bus: 1, address: 0x49, register: 0x10, bytes: 2, order: little, period: 1s}}
                """, tmp)) {
            MockI2C tmp102 = b.host.pi4j().registry().get("spectrum-i2c-1-72-0", MockI2C.class);
            tmp102.writeRegister(0, new byte[] {0x19, 0x00}, 0, 2); // 0x190 = 400 -> 25.0 °C
            MockI2C raw = b.host.pi4j().registry().get("spectrum-i2c-1-73-16", MockI2C.class);
            raw.writeRegister(0x10, new byte[] {0x34, 0x12}, 0, 2);
            b.step(1000);
            assertEquals(400, b.raw("/tmp102"));
            assertEquals(25.0, b.node.declaration(NodePath.of("/tmp102")).toUnit(b.raw("/tmp102")));
            assertEquals(0x1234, b.raw("/raw"));
            tmp102.writeRegister(0, new byte[] {(byte) 0xE7, 0x00}, 0, 2); // -25.0 °C, sign of the 12 bits
            b.step(2000);
            assertEquals(-400, b.raw("/tmp102"));
        }
        assertEquals(-1, I2cRegister.assemble(new byte[] {(byte) 0xFF, (byte) 0xF0}, 2, true, 4, true));
        assertEquals(0xFFF, I2cRegister.assemble(new byte[] {(byte) 0xFF, (byte) 0xF0}, 2, true, 4, false));
    }

    @Test
    void anSmbusTransferOnTheMockPlatformReadsTheMockRegisterAsTheWireBringsIt() throws Exception {
        // the mock does not tell transfers apart: its register holds the bytes in wire order, a word low byte first
        try (BoardFixture b = new BoardFixture("""
                platform: mock
                vertices:
                  - {path: /word, type: u16, source: {kind: i2c, address: 0x48, register: 2, transfer: smbus-word, period: 1s}}
                  - {path: /byte, type: u16, source: {kind: i2c, address: 0x20, register: 3, transfer: smbus-byte, period: 1s}}
                  - {path: /block, type: u32, source: {kind: i2c, address: 0x50, register: 4, transfer: smbus-block, period: 1s}}
                """, tmp)) {
            b.host.pi4j().registry().get("spectrum-i2c-1-72-2", MockI2C.class).writeRegister(2, new byte[] {0x34, 0x12}, 0, 2);
            b.host.pi4j().registry().get("spectrum-i2c-1-32-3", MockI2C.class).writeRegister(3, new byte[] {(byte) 0xA5}, 0, 1);
            b.host.pi4j().registry().get("spectrum-i2c-1-80-4", MockI2C.class).writeRegister(4, new byte[] {1, 2, 3, 4}, 0, 4);
            b.step(1000);
            assertEquals(0x1234, b.raw("/word"), "an SMBus word is little-endian by default");
            assertEquals(0xA5, b.raw("/byte"), "one byte, whatever the vertex's width");
            assertEquals(0x01020304, b.raw("/block"), "a block is big-endian by default, as a plain read");
        }
    }

    @Test
    void aOneWireSensorIsReadFromTheKernelsFiles() throws Exception {
        Path sys = tmp.resolve("sys");
        Path dev = Files.createDirectories(sys.resolve("bus/w1/devices/28-0123456789ab"));
        Files.writeString(dev.resolve("temperature"), "21375\n");
        Path old = Files.createDirectories(sys.resolve("bus/w1/devices/28-00000000beef"));
        Files.writeString(old.resolve("w1_slave"), "72 01 4b 46 7f ff 0e 10 57 : crc=57 YES\n72 01 4b 46 7f ff 0e 10 57 t=-1250\n");
        try (BoardFixture b = new BoardFixture("""
                sys: sys
                vertices:
                  - {path: /water, type: i16, unit: Cel, scale: 0.01, source: {kind: w1, device: 28-0123456789ab, period: 2s}}
                  - {path: /outside, type: i32, unit: Cel, scale: 0.001, source: {kind: w1, device: 28-00000000beef}}
                """, tmp)) {
            assertEquals(2138, b.raw("/water"), "21.375 °C at 0.01 per raw step");
            assertEquals("°C", b.node.declaration(NodePath.of("/water")).unitSymbol());
            assertEquals(-1250, b.raw("/outside"));
            Files.writeString(dev.resolve("temperature"), "19000\n");
            b.step(2000);
            assertEquals(1900, b.raw("/water"));
        }
    }

    @Test
    void theBoardItselfFromFakeSysAndProc() throws Exception {
        Path sys = tmp.resolve("sys");
        Path proc = Files.createDirectories(tmp.resolve("proc"));
        Files.createDirectories(sys.resolve("class/thermal/thermal_zone0"));
        Files.writeString(sys.resolve("class/thermal/thermal_zone0/temp"), "48312\n");
        Files.createDirectories(sys.resolve("devices/platform/soc/soc:firmware"));
        Files.writeString(sys.resolve("devices/platform/soc/soc:firmware/get_throttled"), "0x50005\n");
        Files.createDirectories(sys.resolve("class/net/wlan0/statistics"));
        Files.writeString(sys.resolve("class/net/wlan0/statistics/rx_bytes"), "123456789\n");
        Files.writeString(sys.resolve("class/net/wlan0/statistics/tx_errors"), "3\n");
        Files.writeString(proc.resolve("loadavg"), "0.42 0.30 0.25 1/123 4567\n");
        Files.writeString(proc.resolve("uptime"), "3600.77 7000.01\n");
        Files.writeString(proc.resolve("meminfo"), "MemTotal:        3884376 kB\nMemFree:  100 kB\nMemAvailable:    2951234 kB\n");
        try (BoardFixture b = new BoardFixture("""
                sys: sys
                proc: proc
                period: 5s
                vertices:
                  - {path: /self/cpu-temp, type: i16, unit: Cel, scale: 0.1, source: {kind: self, metric: cpu-temp}}
                  - {path: /self/load, type: u16, scale: 0.01, source: {kind: self, metric: load}}
                  - {path: /self/mem, type: u32, unit: kBy, source: {kind: self, metric: memory-available}}
                  - {path: /self/mem-total, type: u32, unit: kBy, source: {kind: self, metric: memory-total}}
                  - {path: /self/uptime, type: u32, unit: s, source: {kind: self, metric: uptime}}
                  - {path: /self/throttled, type: u32, source: {kind: self, metric: throttled}}
                  - {path: /self/rx, type: u64, unit: By, source: {kind: self, metric: rx-bytes, interface: wlan0}}
                  - {path: /self/tx-errors, type: u32, source: {kind: self, metric: tx-errors, interface: wlan0}}
                """, tmp)) {
            assertEquals(483, b.raw("/self/cpu-temp"));
            assertEquals(42, b.raw("/self/load"));
            assertEquals(2951234, b.raw("/self/mem"));
            assertEquals(3884376, b.raw("/self/mem-total"));
            assertEquals(3600, b.raw("/self/uptime"));
            assertEquals(0x50005, b.raw("/self/throttled"));
            assertEquals(123456789, b.raw("/self/rx"));
            assertEquals(3, b.raw("/self/tx-errors"));
        }
    }

    @Test
    void aFileAndACommandAreTheFallbackSources() throws Exception {
        Path value = tmp.resolve("level.txt");
        Files.writeString(value, "42.5 cm\n");
        Path label = tmp.resolve("label.txt");
        Files.writeString(label, "garden shed\n");
        try (BoardFixture b = new BoardFixture("""
                vertices:
                  - {path: /level, type: u16, unit: cm, scale: 0.1, source: {kind: file, file: level.txt, period: 1s}}
                  - {path: /label, type: name, source: {kind: file, file: label.txt, period: 1s}}
                  - {path: /cmd, type: i32, source: {kind: command, run: [sh, -c, "echo -17"], period: 1s}}
                """, tmp)) {
            assertEquals(425, b.raw("/level"));
            Files.writeString(value, "7\n");
            b.step(1000);
            assertEquals(70, b.raw("/level"));
            assertTrue(b.has("/label"));
            for (int i = 0; i < 500 && !b.has("/cmd"); i++) {
                Thread.sleep(10); // the command runs on its own thread; its result is handed to the loop
                b.step(0);
            }
            assertEquals(-17, b.raw("/cmd"));
        }
    }

    @Test
    void theMockPinsFilesReachAnotherProcess() throws Exception {
        try (BoardFixture b = new BoardFixture("""
                platform: mock
                mock-pins: pins
                vertices:
                  - {path: /button, type: u8, source: {kind: gpio-in, pin: 6}}
                  - {path: /relay, type: u8, range: [0, 1], sink: {kind: gpio-out, pin: 16}}
                """, tmp)) {
            Path pins = tmp.resolve("pins");
            assertEquals("0", Files.readString(pins.resolve("gpio16")));
            b.write("/relay", 1);
            assertEquals("1", Files.readString(pins.resolve("gpio16")));
            MockPins.write(pins.resolve("gpio6"), true);
            for (int i = 0; i < 500 && b.raw("/button") == 0; i++) {
                Thread.sleep(10); // the pin files are polled every 5 ms
                b.step(0);
            }
            assertEquals(1, b.raw("/button"));
        }
    }
}
