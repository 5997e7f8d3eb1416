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
 * and listen; a bare {@code :PORT} binds loopback), {@code --peer HOST:PORT} (dial),
 * {@code --serial DEVICE --baud N}, with the {@link LinkSettings} (liveness timers, frame size,
 * receive buffer).
 */
public final class LinkSpec {
    public static final long DEFAULT_PING_MILLIS = 1000;
    public static final long DEFAULT_TIMEOUT_MILLIS = 5000;

    private LinkSpec() {
    }

    public static Link udpListen(int id, String hostPort, LinkSettings s, Clock clock) throws IOException {
        return UdpLink.listen(id, UdpLink.parseHostPort(hostPort), udpConfig(s), clock);
    }

    public static Link udpDial(int id, String hostPort, LinkSettings s, Clock clock) throws IOException {
        return UdpLink.dial(id, UdpLink.parseHostPort(hostPort), udpConfig(s), clock);
    }

    /**
     * Opens a serial line. A device path that does not exist at start is refused (the caller prints
     * the reason and exits 2); once open, a device that goes away is reopened by the link.
     *
     * @throws IllegalArgumentException when {@code device} is a path that does not exist
     */
    public static Link serial(int id, String device, int baud, LinkSettings s, Clock clock) {
        if (device.startsWith("/") && !java.nio.file.Files.exists(java.nio.file.Path.of(device))) {
            throw new IllegalArgumentException("serial device " + device + " does not exist (is the board plugged in? "
                    + "ls /dev/ttyUSB* /dev/ttyACM* lists the ports)");
        }
        SerialLinkConfig c = new SerialLinkConfig().baud(baud)
                .pingIntervalMillis(s.pingMillis).peerTimeoutMillis(s.timeoutMillis)
                .reopenBackoffMillis(50, 1000);
        if (s.frameBytes > 0) {
            c.maxFrame(s.frameBytes);
        }
        return SerialLink.open(id, device, c, clock);
    }

    public static Link udpListen(int id, String hostPort, long pingMillis, long timeoutMillis, Clock clock)
            throws IOException {
        return udpListen(id, hostPort, timers(pingMillis, timeoutMillis), clock);
    }

    public static Link udpDial(int id, String hostPort, long pingMillis, long timeoutMillis, Clock clock)
            throws IOException {
        return udpDial(id, hostPort, timers(pingMillis, timeoutMillis), clock);
    }

    public static Link serial(int id, String device, int baud, long pingMillis, long timeoutMillis, Clock clock) {
        return serial(id, device, baud, timers(pingMillis, timeoutMillis), clock);
    }

    private static LinkSettings timers(long pingMillis, long timeoutMillis) {
        return new LinkSettings().pingMillis(pingMillis).timeoutMillis(timeoutMillis);
    }

    private static UdpLinkConfig udpConfig(LinkSettings s) {
        UdpLinkConfig c = new UdpLinkConfig().pingIntervalMillis(s.pingMillis).peerTimeoutMillis(s.timeoutMillis)
                .receiveBufferBytes(s.receiveBufferBytes);
        if (s.frameBytes > 0) {
            c.maxFrame(Math.min(s.frameBytes, UdpLinkConfig.MAX_DATAGRAM));
        }
        return c;
    }
}
