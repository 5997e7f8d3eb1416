package io.spectrum.runtime;

import io.spectrum.link.Link;
import io.spectrum.link.serial.SerialLink;
import io.spectrum.link.serial.SerialLinkConfig;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.time.Clock;

import java.io.IOException;

/**
 * Opens the link a node process asked for with the shared options: {@code --udp HOST:PORT} (bind
 * and listen), {@code --peer HOST:PORT} (dial), {@code --serial DEVICE --baud N}, with the liveness
 * timers ({@code pingMillis}: probe a quiet peer; {@code timeoutMillis}: report it down).
 */
public final class LinkSpec {
    public static final long DEFAULT_PING_MILLIS = 1000;
    public static final long DEFAULT_TIMEOUT_MILLIS = 5000;

    private LinkSpec() {
    }

    public static Link udpListen(int id, String hostPort, long pingMillis, long timeoutMillis, Clock clock)
            throws IOException {
        return UdpLink.listen(id, UdpLink.parseHostPort(hostPort), udpConfig(pingMillis, timeoutMillis), clock);
    }

    public static Link udpDial(int id, String hostPort, long pingMillis, long timeoutMillis, Clock clock)
            throws IOException {
        return UdpLink.dial(id, UdpLink.parseHostPort(hostPort), udpConfig(pingMillis, timeoutMillis), clock);
    }

    public static Link serial(int id, String device, int baud, long pingMillis, long timeoutMillis, Clock clock) {
        return SerialLink.open(id, device, new SerialLinkConfig().baud(baud)
                .pingIntervalMillis(pingMillis).peerTimeoutMillis(timeoutMillis)
                .reopenBackoffMillis(50, 1000), clock);
    }

    private static UdpLinkConfig udpConfig(long pingMillis, long timeoutMillis) {
        return new UdpLinkConfig().pingIntervalMillis(pingMillis).peerTimeoutMillis(timeoutMillis);
    }
}
