package io.spectrum.host;

import io.spectrum.client.bus.BusClient;
import io.spectrum.link.local.LocalLink;
import io.spectrum.time.SystemClock;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusFields;
import io.spectrum.bus.protocol.BusFrames;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code --bus-idle-timeout} reaches the bus: its hello says the value and a silent client is closed after it. */
class BusIdleTimeoutOptionTest {
    @TempDir
    Path tmp;

    @Test
    void theHostsIdleTimeoutIsTheBussAndASilentClientIsClosedAfterIt() throws Exception {
        Path socket = tmp.resolve("bus.sock");
        HostBusSetup setup = HostConfig.builder().bus(socket.toString()).busIdleTimeoutMillis(300).build().bus();
        HostBusSetup.Started s = setup.start(SystemClock.INSTANCE);
        LocalLink client = LocalLink.connect(1, UnixDomainSocketAddress.of(socket), "quiet", BusClient.linkConfig(),
                SystemClock.INSTANCE);
        try {
            byte[] hello = BusFrames.request("bus.hello", "/t/r/1", BusFields.of());
            BusFrames.Decoded[] reply = {null};
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            client.send(0, hello, 0, hello.length);
            while (reply[0] == null && System.nanoTime() < deadline) {
                client.poll((l, peer, buf, off, len) -> {
                    try {
                        BusFrames.Decoded d = BusFrames.decode(buf, off, len);
                        if (d.isReply()) {
                            reply[0] = d;
                        }
                    } catch (BusException notOurs) {
                        // the link's hello echo
                    }
                }, 16);
                Thread.sleep(5);
            }
            assertNotNull(reply[0], "the bus answered the hello");
            assertEquals(300, reply[0].fields().u64("idleTimeoutMs", -1), "the hello tells the client the host's timeout");
            assertEquals(1, s.host().stats().connections());
            while (s.host().stats().connections() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(20); // the client says nothing more
            }
            assertEquals(0, s.host().stats().connections(), "a client silent past the timeout is closed");
        } finally {
            client.close();
            s.host().close();
        }
    }

    @Test
    void theOptionIsCheckedAndNeedsTheBus() {
        assertTrue(assertInvalid(HostConfig.builder().udp("127.0.0.1:0").busIdleTimeoutMillis(5000)).contains("need --bus PATH"));
        assertTrue(assertInvalid(HostConfig.builder().bus(tmp.resolve("b.sock").toString()).busIdleTimeoutMillis(50))
                .contains("--bus-idle-timeout must be 0 (never) or 0.1 to 86400 seconds"));
    }

    private static String assertInvalid(HostConfig.Builder b) {
        try {
            b.build();
        } catch (HostConfig.Invalid e) {
            return e.getMessage();
        }
        throw new AssertionError("accepted");
    }
}
