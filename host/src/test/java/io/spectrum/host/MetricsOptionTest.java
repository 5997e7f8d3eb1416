package io.spectrum.host;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --metrics [HOST:]PORT} and the host file's {@code metrics} (docs/host.md, "Metrics"): a bare
 * port binds loopback, {@code none} or {@code false} serves no metrics, anything else is refused with
 * the key named; an address given that is busy stops the host with one line.
 */
class MetricsOptionTest {
    private static HostConfig.Builder host() {
        return HostConfig.builder().udp("127.0.0.1:0").env(Map.of());
    }

    @Test
    void theListenersAddressIsLoopbackByDefaultAndTakesHostPortOrNone() {
        HostConfig d = host().build();
        assertEquals(new HostConfig.Endpoint("127.0.0.1", 9464), d.metrics());
        assertTrue(d.metricsDefault());
        assertEquals(new HostConfig.Endpoint("127.0.0.1", 9100), host().metrics("9100").build().metrics());
        assertEquals(new HostConfig.Endpoint("0.0.0.0", 9100), host().metrics("0.0.0.0:9100").build().metrics());
        assertEquals(new HostConfig.Endpoint("::1", 9100), host().metrics("[::1]:9100").build().metrics());
        assertEquals("[::1]:9100", host().metrics("[::1]:9100").build().metrics().toString());
        assertNull(host().metrics("none").build().metrics());
        assertNull(host().metrics("false").build().metrics());
        for (String bad : new String[] {"abc", "70000", "host:", ":9100x", "-1"}) {
            HostConfig.Invalid e = assertThrows(HostConfig.Invalid.class, () -> host().metrics(bad).build(), bad);
            assertEquals("metrics", e.key());
            assertEquals("--metrics takes [HOST:]PORT (PORT 0..65535) or none, was '" + bad + "'", e.getMessage());
        }
    }

    @Test
    void theHostFilesMetricsKeyIsTheOption() throws Exception {
        Path base = Path.of("/etc/spectrum");
        assertNull(HostFile.parse("host.yaml", "udp: :7701\nmetrics: false\n", base, host()).metrics());
        assertEquals(new HostConfig.Endpoint("127.0.0.1", 9300),
                HostFile.parse("host.yaml", "udp: :7701\nmetrics: 9300\n", base, host()).metrics());
        HostFileError e = assertThrows(HostFileError.class,
                () -> HostFile.parse("host.yaml", "udp: :7701\nmetrics: nope\n", base, host()));
        assertEquals("host.yaml:2: metrics: --metrics takes [HOST:]PORT (PORT 0..65535) or none, was 'nope'", e.getMessage());
    }

    @Test
    void aBusyAddressGivenStopsTheHostWithOneLine() throws Exception {
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            HostConfig c = host().dashboard(HostConfig.NO_DASHBOARD).metrics("127.0.0.1:" + busy.getLocalPort()).build();
            Host.StartFailure f = assertThrows(Host.StartFailure.class, () -> Host.start(c,
                    new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), false));
            assertTrue(f.getMessage().startsWith("cannot open the metrics listener on 127.0.0.1:" + busy.getLocalPort() + ": "),
                    f.getMessage());
            assertTrue(f.getMessage().endsWith("(give --metrics another [HOST:]PORT, or --metrics none)"), f.getMessage());
        }
    }
}
