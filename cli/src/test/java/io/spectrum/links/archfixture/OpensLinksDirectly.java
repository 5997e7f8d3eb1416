package io.spectrum.links.archfixture;

import io.spectrum.link.Link;
import io.spectrum.link.serial.InMemorySerialPort;
import io.spectrum.link.serial.SerialLink;
import io.spectrum.link.serial.SerialLinkConfig;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.time.SystemClock;

import java.io.IOException;
import java.net.InetSocketAddress;

/** A fixture for {@code LinkConstructionTest}: opens links around the factory, the two ways it can. */
public final class OpensLinksDirectly {
    private OpensLinksDirectly() {
    }

    /** A transport's static factory, called directly. */
    public static Link dialsUdp() throws IOException {
        return UdpLink.dial(1, new InetSocketAddress("127.0.0.1", 9), new UdpLinkConfig(), SystemClock.INSTANCE);
    }

    /** A link's constructor, called directly. */
    public static Link constructsSerial() {
        return new SerialLink(1, InMemorySerialPort.pair("x", 64)[0], new SerialLinkConfig(), SystemClock.INSTANCE);
    }

    /** What the rule allows everywhere: asking a link it was handed for its address. */
    public static String asks(UdpLink link) {
        return UdpLink.hostPort(link.localAddress());
    }
}
