package io.spectrum.cli;

import io.spectrum.client.PeerClient;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.time.SystemClock;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.time.Duration;

/** Options shared by the commands that talk to a running node: where it is, how long to wait, JSON. */
public final class PeerOptions {
    @Option(names = "--peer", paramLabel = "HOST:PORT", required = true,
            description = "The node to talk to over UDP: a board's or host's --udp address, e.g. 127.0.0.1:7700.")
    String peer;

    @Option(names = "--timeout", paramLabel = "MS", defaultValue = "2000",
            description = "How long to wait for each answer (default: ${DEFAULT-VALUE} ms).")
    long timeoutMillis;

    @Option(names = "--json", description = "Print JSON (one object per line for streams) instead of text.")
    boolean json;

    /** Dials the peer; a bad address is a parameter error (exit 2) with the reason. */
    PeerClient connect(CommandLine cl) {
        if (timeoutMillis <= 0) {
            throw new CommandLine.ParameterException(cl, "--timeout must be positive (was " + timeoutMillis + ")");
        }
        try {
            UdpLink link = UdpLink.dial(1, UdpLink.parseHostPort(peer), new UdpLinkConfig(), SystemClock.INSTANCE);
            return new PeerClient(link, 0, Duration.ofMillis(timeoutMillis));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, "--peer " + peer + ": " + e.getMessage()
                    + " (give the node's UDP address as HOST:PORT, e.g. 127.0.0.1:7700)");
        } catch (IOException e) {
            throw new CommandLine.ParameterException(cl, "--peer " + peer + ": cannot open a UDP socket: " + e.getMessage());
        }
    }
}
