package io.spectrum.host;

import io.spectrum.host.runtime.MountSpec;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A host's mounts are link URIs (docs/links.md, "Links by URI"): every scheme, the shorthands, and a wrong one refused at once. */
class HostLinkUriTest {
    @Test
    void everySchemeMountsFromTheHostFile() throws Exception {
        HostConfig c = HostFile.parse("host.yaml", """
                mounts:
                  - name: pi
                    link: serial:///dev/ttyAMA0?baud=9600
                  - name: old
                    link: serial:/dev/ttyUSB0
                  - name: far
                    link: dtls://10.0.0.5:7700?keys=/etc/spectrum/keys&name=host
                  - name: esp
                    link: tcp://10.0.0.6:7800
                  - name: near
                    link: udp://10.0.0.7:7700
                """, Path.of("/etc/spectrum"), HostConfig.builder().env(Map.of()));
        List<HostConfig.Mount> m = c.mounts();
        assertEquals(HostConfig.LinkKind.SERIAL, m.get(0).kind());
        assertEquals("/dev/ttyAMA0", m.get(0).address());
        assertEquals("9600", m.get(0).uri().param("baud", null));
        assertEquals("/dev/ttyUSB0", m.get(1).address(), "the serial:DEVICE shorthand");
        assertEquals(HostConfig.LinkKind.DTLS, m.get(2).kind());
        assertEquals(HostConfig.LinkKind.TCP, m.get(3).kind());
        assertEquals(HostConfig.LinkKind.UDP, m.get(4).kind());
    }

    @Test
    void aWrongMountUriIsRefusedWithWhatToWrite() {
        HostConfig.Invalid e = assertThrows(HostConfig.Invalid.class, () -> HostConfig.builder()
                .mount(HostConfig.Mount.udp("b", "mqtt://broker:1883", List.of())).build());
        assertEquals("mounts", e.key());
        assertEquals("board b: mqtt://broker:1883: no link is called mqtt://; write one of udp://127.0.0.1:7700, "
                + "dtls://127.0.0.1:7700?keys=DIR&name=NAME, tcp://127.0.0.1:7702, unix:///run/spectrum/bus.sock, "
                + "serial:///dev/ttyAMA0?baud=115200", e.getMessage());
        HostConfig.Invalid p = assertThrows(HostConfig.Invalid.class, () -> HostConfig.builder()
                .mount(HostConfig.Mount.serial("s", "serial:///dev/x?speed=9", List.of())).build());
        assertEquals("board s: serial:///dev/x?speed=9: serial:// takes only ?baud, not ?speed; write e.g. "
                + "serial:///dev/ttyAMA0?baud=115200", p.getMessage());
    }

    @Test
    void theCommandLinesMountSpecKeepsAUrisOwnEquals() {
        MountSpec.Named bare = MountSpec.parse("serial:///dev/ttyAMA0?baud=115200");
        assertNull(bare.name());
        assertEquals("serial:///dev/ttyAMA0?baud=115200", bare.address());
        MountSpec.Named named = MountSpec.parse("pi=serial:///dev/ttyAMA0?baud=115200");
        assertEquals("pi", named.name());
        assertEquals("serial:///dev/ttyAMA0?baud=115200", named.address());
        assertEquals("serial:///dev/ttyAMA0?baud=115200",
                HostConfig.Mount.serial("pi", named.address(), List.of()).link(), "--serial takes the URI as it is");
        assertEquals("serial:///dev/ttyUSB0", HostConfig.Mount.serial("b", "/dev/ttyUSB0", List.of()).link());
    }

    @Test
    void theBusTakesUnixAndTcpUrisAndRefusesAnyOtherBeforeOpening() throws Exception {
        HostConfig c = HostFile.parse("host.yaml", """
                bus: unix:///run/spectrum/bus.sock
                bus-tcp: tcp://127.0.0.1:7710
                """, Path.of("/etc/spectrum"), HostConfig.builder().env(Map.of()));
        assertEquals("unix:///run/spectrum/bus.sock", c.busPath(), "a URI is not resolved against the file's directory");
        HostConfig.Invalid udp = assertThrows(HostConfig.Invalid.class,
                () -> HostConfig.builder().bus("udp://127.0.0.1:7710").build());
        assertEquals("--bus udp://127.0.0.1:7710: expected a socket path or unix:///PATH (a TCP address is --bus-tcp)",
                udp.getMessage());
        HostConfig.Invalid tcp = assertThrows(HostConfig.Invalid.class,
                () -> HostConfig.builder().bus("/tmp/b.sock").busTcp("tcp://127.0.0.1:7710?x=1").build());
        assertEquals("--bus-tcp tcp://127.0.0.1:7710?x=1: tcp:// takes no ?parameters, not ?x; write e.g. tcp://127.0.0.1:7702",
                tcp.getMessage());
    }
}
