package io.spectrum.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.pi4j.io.gpio.digital.DigitalState;
import com.pi4j.plugin.mock.provider.gpio.digital.MockDigitalOutput;
import io.spectrum.board.Board;
import io.spectrum.board.app.AppHost;
import io.spectrum.board.decl.BoardFileParser;
import io.spectrum.board.decl.BoardSetup;
import io.spectrum.client.PeerClient;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.TlvWriter;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The thermostat on a running board (its own node loop, a UDP link) and a host peer on the other
 * end: the host sees the fake 1-Wire temperature with its unit, and its write of the setpoint moves
 * the switch point of the mock relay.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ThermostatOverALinkTest {
    @TempDir
    Path tmp;

    @Test
    void aHostReadsTheTemperatureInCelsiusAndItsSetpointWriteSwitchesTheRelay() throws Exception {
        Path w1 = Files.createDirectories(tmp.resolve("sys/bus/w1/devices/28-0000075a3c1f"));
        Files.writeString(w1.resolve("temperature"), "21000\n");
        var file = new BoardFileParser(-1).parse("thermostat.yaml", """
                platform: mock
                sys: sys
                apps:
                  - class: io.spectrum.examples.thermostat.Thermostat
                    settings: {sensor: 28-0000075a3c1f, relay: 17, setpoint: 21, hysteresis: 0.5, period: 20}
                """, tmp);
        AppHost host = BoardSetup.host(file, "greenhouse", List.of());
        try (Board board = new Board("greenhouse", NodeConfig.defaults(), host)) {
            UdpLink link = UdpLink.listen(1, new InetSocketAddress("127.0.0.1", 0), new UdpLinkConfig(), SystemClock.INSTANCE);
            board.attach(link);
            board.start();
            MockDigitalOutput relay = host.pi4j().registry().get("thermostat-relay", MockDigitalOutput.class);
            UdpLink hostEnd = UdpLink.dial(9, new InetSocketAddress("127.0.0.1", link.localAddress().getPort()),
                    new UdpLinkConfig(), SystemClock.INSTANCE);
            try (PeerClient c = new PeerClient(hostEnd, 0, Duration.ofSeconds(2))) {
                VertexSchema temp = c.declaration("/thermostat/temp");
                assertEquals("°C", temp.unitSymbol());
                byte[] v = c.read("/thermostat/temp").value();
                assertEquals(21.0, temp.toUnit(temp.rawValue(v, v.length - temp.width())), 1e-9);
                assertEquals(DigitalState.LOW, relay.state(), "21 °C is inside 21 ± 0.5");

                byte[] sp = new byte[8];
                int n = new TlvWriter().wrap(sp, 0, sp.length).value(2200, 2).length(); // 22.00 °C
                assertTrue(c.write("/thermostat/setpoint", java.util.Arrays.copyOf(sp, n)).ok(), "the host writes the setpoint");
                assertTrue(eventually(() -> relay.state() == DigitalState.HIGH), "21 °C < 22 - 0.5: the relay switches on");

                Files.writeString(w1.resolve("temperature"), "22600\n");
                assertTrue(eventually(() -> relay.state() == DigitalState.LOW), "22.6 °C > 22 + 0.5: off again");
                n = new TlvWriter().wrap(sp, 0, sp.length).value(9000, 2).length();
                assertTrue(c.write("/thermostat/setpoint", java.util.Arrays.copyOf(sp, n)).isError(), "90 °C is refused");
            }
        }
    }

    private static boolean eventually(BooleanSupplier condition) throws InterruptedException {
        for (int i = 0; i < 1000; i++) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(10);
        }
        return condition.getAsBoolean();
    }
}
