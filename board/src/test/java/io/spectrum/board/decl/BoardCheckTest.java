package io.spectrum.board.decl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.pi4j.io.gpio.digital.DigitalState;
import com.pi4j.plugin.mock.provider.gpio.digital.MockDigitalOutput;
import io.spectrum.board.BoardFixture;
import io.spectrum.board.BoardMain;
import io.spectrum.wire.WireError;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code board --check} parses, resolves and validates a board file and touches nothing: no pin,
 * bus, device, file source or command is opened, and no app is made.
 */
class BoardCheckTest {
    @TempDir
    Path tmp;

    private record Run(int code, String out, String err) {
    }

    private Run check(String yaml, String... more) throws Exception {
        Path f = tmp.resolve("board.yaml");
        Files.writeString(f, yaml);
        String[] args = new String[3 + more.length];
        args[0] = "--check";
        args[1] = "--config";
        args[2] = f.toString();
        System.arraycopy(more, 0, args, 3, more.length);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = BoardMain.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString().replace(f.toString(), "FILE"));
    }

    @Test
    void aCheckLeavesARunningBoardsRelayAndItsReadbackAsTheyAre() throws Exception {
        String yaml = """
                name: shed
                platform: mock
                mock-pins: pins
                vertices:
                  - {path: /relay, type: u8, range: [0, 1], initial: 0, sink: {kind: gpio-out, pin: 16, readback: /relay/state}}
                  - {path: /tmp102, type: i16, unit: Cel, scale: 0.0625,
                     source: {kind: i2c, bus: 1, address: 0x48, bytes: 2, shift: 4, period: 1s}}
                """;
        try (BoardFixture running = new BoardFixture(yaml, tmp)) {
            MockDigitalOutput relay = running.host.pi4j().registry().get("spectrum-out-16", MockDigitalOutput.class);
            assertEquals(WireError.OK, running.write("/relay", 1));
            Path pinFile = tmp.resolve("pins/gpio16");
            assertEquals("1", Files.readString(pinFile));

            Run r = check(yaml);

            assertEquals(0, r.code(), r.err());
            assertTrue(r.out().trim().endsWith("board.yaml: ok (shed)"), r.out());
            assertEquals("1", Files.readString(pinFile), "the check wrote the relay's pin file (its initial 0)");
            assertEquals(DigitalState.HIGH, relay.state());
            assertEquals(1, running.raw("/relay/state"), "the running board's read-back is unchanged");
        }
    }

    @Test
    void aCheckOpensNoPinBusDeviceOrCommandSoItPassesOffThePi() throws Exception {
        // platform auto on a machine that is not a Pi: opening any of these would fail the check
        Run r = check("""
                vertices:
                  - {path: /a/door, type: u8, source: {kind: gpio-in, pin: 4}}
                  - {path: /a/relay, type: u8, sink: {kind: gpio-out, pin: 17}}
                  - {path: /a/fan, type: u16, unit: "%", scale: 0.1, range: [0, 1000], sink: {kind: pwm, channel: 0}}
                  - {path: /a/tmp102, type: i16, unit: Cel, scale: 0.0625, source: {kind: i2c, address: 0x48, shift: 4}}
                  - {path: /a/water, type: i16, unit: Cel, scale: 0.01, source: {kind: w1, device: 28-0123456789ab}}
                  - {path: /a/cmd, type: i32, source: {kind: command, run: [touch, "RAN"]}}
                """.replace("RAN", tmp.resolve("ran").toString()));
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("board.yaml: ok"), r.out());
        Thread.sleep(200); // a command would have run by now on its own thread
        assertFalse(Files.exists(tmp.resolve("ran")), "the check ran the command");
    }

    @Test
    void aCheckFindsTheAppsClassesWithoutMakingOrInitializingOne() throws Exception {
        int made = CountingApp.MADE.get();
        int initialized = CountingApp.INITIALIZED.get();
        Run r = check("apps:\n  - class: io.spectrum.board.decl.CountingApp\n");
        assertEquals(0, r.code(), r.err());
        assertEquals(made, CountingApp.MADE.get(), "the check made an app");
        assertEquals(initialized, CountingApp.INITIALIZED.get(), "the check ran the app class's static code");
    }

    @Test
    void aCheckRefusesAnAppClassThatIsMissingOrCannotBeMade() throws Exception {
        Run missing = check("vertices:\n  - {path: /a, type: u8}\napps:\n  - class: com.example.Missing\n");
        assertEquals(2, missing.code());
        assertTrue(missing.err().startsWith("board: FILE:4: apps[0].class: com.example.Missing is not in the app jars"),
                missing.err());
        Run noCtor = check("apps:\n  - class: io.spectrum.board.decl.CountingApp$NoDefaultConstructor\n");
        assertEquals(2, noCtor.code());
        assertTrue(noCtor.err().contains("public no-argument constructor"), noCtor.err());
        Run notApp = check("apps:\n  - class: java.lang.String\n");
        assertEquals(2, notApp.code());
        assertTrue(notApp.err().contains("is not a io.spectrum.board.app.BoardApp"), notApp.err());
        assertEquals(1, notApp.err().trim().lines().count(), notApp.err());
    }
}
