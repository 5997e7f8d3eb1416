package io.spectrum.cli;

import io.spectrum.runtime.LinkSettings;
import io.spectrum.runtime.LinkSpec;
import io.spectrum.link.Link;
import io.spectrum.time.SystemClock;
import picocli.CommandLine.Option;

import java.io.IOException;

/**
 * The link settings shared by the node processes ({@code board}, {@code host}): serial baud rate and
 * the liveness timers, and opening a UDP listener, a UDP dialer or a serial line with them. Which
 * links to open ({@code --udp}, {@code --peer}, {@code --serial}) stays with each command: a board
 * runs on exactly one, a host on any number of boards plus a client listener.
 */
public final class LinkOptions {
    @Option(names = "--baud", paramLabel = "N", defaultValue = "115200", description = "Serial baud rate (8N1). Default: ${DEFAULT-VALUE}.")
    int baud;

    @Option(names = "--ping", paramLabel = "MS", defaultValue = "1000", description = "Probe a quiet peer after this long.")
    long pingMillis;

    @Option(names = "--timeout", paramLabel = "MS", defaultValue = "5000", description = "Report a silent peer down after this long.")
    long timeoutMillis;

    @Option(names = "--frame", paramLabel = "BYTES", defaultValue = "0",
            description = "Largest frame on each link (0: the link's default, UDP 65507, serial 4096). The node refuses "
                    + "at write time a value that would not fit one frame of its smallest link.")
    int frameBytes;

    @Option(names = "--rcvbuf", paramLabel = "BYTES", defaultValue = "4194304",
            description = "UDP receive buffer to ask the OS for (default: ${DEFAULT-VALUE}; 0: the OS default). A warning "
                    + "says when the OS grants less (net.core.rmem_max).")
    int receiveBuffer;

    @Option(names = "--dtls-key", paramLabel = "FILE",
            description = "DTLS on the board links (--peer): this host's key; its certificate is the .crt beside it "
                    + "(spectrum keys issue NAME makes both). The --udp client listener stays plain.")
    String dtlsKey;

    @Option(names = "--dtls-ca", paramLabel = "FILE",
            description = "The fleet CA certificate, the only one trusted; revoked.crl beside it is read at start.")
    String dtlsCa;

    @Option(names = "--dtls-keys", paramLabel = "DIR",
            description = "Both from a keys directory: DIR/<--dtls-name>.key and DIR/ca.crt.")
    String dtlsKeys;

    @Option(names = "--dtls-name", paramLabel = "NAME", defaultValue = "host",
            description = "Whose key --dtls-keys takes. Default: ${DEFAULT-VALUE}.")
    String dtlsName;

    private io.spectrum.link.dtls.DtlsCredentials dtls;

    /** The settings every link of this process is opened with (plain UDP). */
    LinkSettings settings() {
        return new LinkSettings().pingMillis(pingMillis).timeoutMillis(timeoutMillis).frameBytes(frameBytes)
                .receiveBufferBytes(receiveBuffer);
    }

    /** The settings of the board links: DTLS when the options name credentials (read once, shared). */
    LinkSettings boardSettings() {
        if (dtls == null) {
            dtls = LinkSpec.dtls(dtlsKey, dtlsCa, dtlsKeys, dtlsName);
        }
        return settings().dtls(dtls);
    }

    /** {@code --udp HOST:PORT}: bind and listen (a bare {@code :PORT} binds loopback). */
    Link udpListen(int id, String hostPort) throws IOException {
        return LinkSpec.udpListen(id, hostPort, settings(), SystemClock.INSTANCE);
    }

    /** {@code --peer HOST:PORT}: dial a board's UDP listener (DTLS with {@code --dtls-*}). */
    Link udpDial(int id, String hostPort) throws IOException {
        return LinkSpec.udpDial(id, hostPort, boardSettings(), SystemClock.INSTANCE);
    }

    /** {@code --serial DEVICE} at {@code --baud}. */
    Link serial(int id, String device) {
        return LinkSpec.serial(id, device, baud, settings(), SystemClock.INSTANCE);
    }
}
