package io.spectrum.host;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The TCP spellings of a host (docs/host.md; links.md, "TCP link"): a {@code tcp://} mount and the {@code tcp} listener. */
class HostTcpConfigTest {
    @Test
    void aTcpMountAndTheTcpListenerReadFromTheHostFile() throws Exception {
        HostConfig c = HostFile.parse("host.yaml", """
                mounts:
                  - name: esp
                    link: tcp://192.168.1.30:7800
                    top: [/sensor]
                  - name: kitchen
                    link: 192.168.1.20:7700
                tcp: :7702
                """, Path.of("/etc/spectrum"), HostConfig.builder().env(Map.of()));
        assertEquals(HostConfig.LinkKind.TCP, c.mounts().get(0).kind());
        assertEquals("192.168.1.30:7800", c.mounts().get(0).address());
        assertEquals(List.of("sensor"), c.mounts().get(0).top());
        assertEquals(HostConfig.LinkKind.UDP, c.mounts().get(1).kind(), "no scheme is UDP as before");
        assertEquals(":7702", c.tcp());
        assertNull(c.udp());
    }

    @Test
    void aTcpListenerAloneIsSomethingToConnect() {
        HostConfig c = HostConfig.builder().tcp("127.0.0.1:0").build();
        assertEquals("127.0.0.1:0", c.tcp());
        assertEquals(List.of(), c.mounts());
    }
}
