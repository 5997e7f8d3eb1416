package io.spectrum.cli.options;

import picocli.CommandLine.Option;

/**
 * {@code spectrum host}'s link settings: serial baud rate, the liveness timers, frame and receive-buffer
 * sizes and the board links' DTLS credentials, handed to the host's configuration (the host opens
 * the links). Which links to open ({@code --udp}, {@code --peer}, {@code --serial}) stays with the
 * command.
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

    /** The link settings of {@code spectrum host}, handed to the host's configuration. */
    public void into(io.spectrum.host.HostConfig.Builder b) {
        b.baud(baud).pingMillis(pingMillis).timeoutMillis(timeoutMillis).frameBytes(frameBytes).receiveBuffer(receiveBuffer)
                .dtlsKey(dtlsKey).dtlsCa(dtlsCa).dtlsKeys(dtlsKeys).dtlsName(dtlsName);
    }
}
