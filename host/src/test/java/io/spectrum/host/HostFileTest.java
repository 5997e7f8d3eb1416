package io.spectrum.host;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A host file reads into the same {@link HostConfig} the options build, and a wrong one is one line with its place. */
class HostFileTest {
    private static final Path BASE = Path.of("/etc/spectrum");

    private static HostConfig parse(String text) throws HostFileError {
        return HostFile.parse("host.yaml", text, BASE, HostConfig.builder().env(Map.of()));
    }

    private static HostFileError refused(String text) {
        return assertThrows(HostFileError.class, () -> parse(text));
    }

    @Test
    void everyKeyLandsInTheConfiguration() throws Exception {
        HostConfig c = parse("""
                name: plant1
                mounts:
                  - name: kitchen
                    link: 192.168.1.20:7700
                  - name: ref
                    link: udp://127.0.0.1:47100
                    top: [/sensor, cfg]
                  - name: lab
                    link: serial:///dev/ttyUSB0
                udp: :7701
                dashboard: false
                baud: 57600
                ping: 500
                timeout: 2000
                dtls-keys: keys
                bus: bus.sock
                bus-grants: grants.yaml
                mqtt: mqtt://broker.lan
                mqtt-include: /kitchen/**
                mqtt-queue: 50
                """);
        assertEquals("plant1", c.name());
        assertEquals(List.of(new HostConfig.Mount("kitchen", "192.168.1.20:7700", List.of()),
                new HostConfig.Mount("ref", "udp://127.0.0.1:47100", List.of("sensor", "cfg")),
                new HostConfig.Mount("lab", "serial:///dev/ttyUSB0", List.of())), c.mounts());
        assertEquals(HostConfig.LinkKind.UDP, c.mounts().get(1).kind());
        assertEquals("127.0.0.1:47100", c.mounts().get(1).address());
        assertEquals(HostConfig.LinkKind.SERIAL, c.mounts().get(2).kind());
        assertEquals("/dev/ttyUSB0", c.mounts().get(2).address());
        assertEquals(":7701", c.udp());
        assertEquals(HostConfig.NO_DASHBOARD, c.dashboard());
        assertEquals(57600, c.baud());
        assertEquals(500, c.pingMillis());
        assertEquals(2000, c.timeoutMillis());
        assertEquals(BASE.resolve("keys").toString(), c.dtlsKeys(), "paths are relative to the file");
        assertEquals(BASE.resolve("bus.sock").toString(), c.busPath());
        assertEquals("mqtt://broker.lan", c.mqtt().url());
        assertEquals(50, c.mqttOptions().queue());
        assertTrue(c.mqttOptions().published("/kitchen/temp"));
        assertFalse(c.mqttOptions().published("/lab/temp"));
    }

    @Test
    void theDefaultsAreTheOptionsDefaults() throws Exception {
        HostConfig c = parse("udp: 127.0.0.1:0\n");
        assertEquals("host", c.name());
        assertEquals(HostConfig.DEFAULT_DASHBOARD_PORT, c.dashboard());
        assertEquals(HostConfig.DEFAULT_BAUD, c.baud());
        assertNull(c.mqtt());
        assertNull(c.busPath());
    }

    @Test
    void anUnknownKeyIsNamedWithItsLineAndTheKeysThatFit() {
        HostFileError e = refused("udp: :7701\ndashbaord: 8081\n");
        assertEquals("host.yaml:2: dashbaord: unknown key (did you mean dashboard? known here: " + String.join(", ", HostFile.KEYS)
                + ")", e.getMessage());
        HostFileError inMount = refused("mounts:\n  - name: a\n    link: 127.0.0.1:1\n    adress: x\n");
        assertEquals("host.yaml:4: mounts[0].adress: unknown key (known here: name, link, top)", inMount.getMessage());
    }

    @Test
    void aWrongValueIsOneLineWithItsPlace() {
        assertEquals("host.yaml:2: baud: 'fast' is not a whole number", refused("udp: :1\nbaud: fast\n").getMessage());
        assertEquals("host.yaml:2: dashboard: 70000 is out of range 0..65535", refused("udp: :1\ndashboard: 70000\n").getMessage());
        assertEquals("host.yaml:2: mqtt-raw: 'yes please' is not true or false", refused("udp: :1\nmqtt-raw: yes please\n").getMessage());
        assertEquals("host.yaml:2: mounts[0].link: is required", refused("mounts:\n  - name: a\n").getMessage());
        assertTrue(refused("mounts:\n  - name: a\n    link: 127.0.0.1:1\n  - name: a\n    link: 127.0.0.1:2\n").getMessage()
                .startsWith("host.yaml:2: mounts: two boards are named a"));
        assertEquals("host.yaml:1: mqtt-view: --mqtt-view reads the broker of --mqtt URL; give --mqtt too",
                refused("mqtt-view: true\nudp: :1\n").getMessage());
        assertEquals("host.yaml:1: nothing to connect: give --peer HOST:PORT, --serial DEVICE, --udp HOST:PORT or --bus PATH",
                refused("name: lonely\n").getMessage());
        assertTrue(refused("udp: [a, b]\n").getMessage().startsWith("host.yaml:1: udp: must be a single value"));
        assertTrue(refused("udp: :1\nudp: :2\n").getMessage().startsWith("host.yaml:"), "a key given twice");
        assertTrue(refused("").getMessage().startsWith("host.yaml:1: the file is empty"));
        assertTrue(refused("udp: [\n").getMessage().startsWith("host.yaml:"), "not YAML");
        assertTrue(refused("mounts:\n  - name: ref\n    link: 127.0.0.1:1\n    top: /a/b\n").getMessage()
                .startsWith("host.yaml:4: mounts[0].top: '/a/b' in --top ref=/a/b is not one top-level name"));
    }

    @Test
    void theHistoryKeysMirrorTheOptions() throws Exception {
        HostConfig c = parse("""
                udp: :7701
                state-dir: state
                history-exclude: [/board1/debug/**]
                history-raw: 2d
                history-minutes: 30d
                history-max-bytes: 0
                """);
        var h = c.history();
        assertEquals(BASE.resolve("state").resolve("history.db"), h.file(), "in the state directory, relative to the file");
        assertEquals(List.of("/board1/debug/**"), h.exclude());
        assertEquals(2 * 86_400_000L, h.rawRetentionMs());
        assertEquals(30 * 86_400_000L, h.rollupRetentionMs());
        assertEquals(0, h.maxValueBytes());
        assertFalse(h.filter().test("/board1/debug/x"));
        assertTrue(h.filter().test("/board1/temp"));
        assertNull(parse("udp: :7701\nstate-dir: state\nhistory: none\n").history(), "none: no history");
        assertNull(parse("udp: :7701\n").history(), "no state directory: no history on disk");
        assertEquals(BASE.resolve("h.db"), parse("udp: :7701\nhistory: h.db\n").history().file());
        HostFileError bad = refused("udp: :7701\nstate-dir: s\nhistory-raw: 7 days\n");
        assertTrue(bad.getMessage().contains("history-raw"), bad.getMessage());
    }

    @Test
    void aHistoryServerIsAUrlNotAFile_itsPasswordNeverOnTheLine() throws Exception {
        var h = HostFile.parse("host.yaml", "udp: :7701\nhistory: postgresql://db.example:5433/spectrum\n", BASE,
                HostConfig.builder().env(Map.of("SPECTRUM_HISTORY_USERNAME", "spectrum", "SPECTRUM_HISTORY_PASSWORD", "s3cret")))
                .history();
        assertNull(h.file(), "a server, not a file relative to the host file");
        assertEquals("jdbc:postgresql://db.example:5433/spectrum", h.server().jdbcUrl());
        assertEquals("spectrum", h.server().username());
        assertEquals("s3cret", h.server().password(), "from the environment");
        assertFalse(h.server().toString().contains("s3cret"));
        HostFileError bad = refused("udp: :7701\nhistory: postgresql://u:pw@db.example/spectrum\n");
        assertTrue(bad.getMessage().contains("must not carry user:password"), bad.getMessage());
        bad = refused("udp: :7701\nhistory: postgresql://db.example\n");
        assertTrue(bad.getMessage().contains("no host or no database"), bad.getMessage());
    }
}
