package io.spectrum.cli.options;

import io.spectrum.cli.output.OutputFormat;
import io.spectrum.client.PeerClient;
import io.spectrum.link.Link;
import io.spectrum.runtime.LinkSettings;
import io.spectrum.runtime.LinkSpec;
import io.spectrum.time.SystemClock;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Options shared by the commands that talk to a running node: where it is, how long to wait, how to
 * print. {@code --peer}, {@code --timeout} and {@code --format} default from {@code SPECTRUM_PEER}
 * etc. and the config file ({@code Defaults}).
 */
public final class PeerOptions {
    /** {@code --peer}: the node to talk to, a link URI or HOST:PORT (null: the default from {@code Defaults}). */
    @Option(names = "--peer", paramLabel = "LINK",
            description = "The node to talk to: a link URI (docs/links.md), or a board's or host's --udp address "
                    + "HOST:PORT (UDP), e.g. 127.0.0.1:7700 or [::1]:7700; tcp://HOST:PORT talks to a host's --tcp "
                    + "listener or a libtracer node's TCP transport, dtls://HOST:PORT?keys=DIR&name=NAME to a DTLS "
                    + "listener, serial:///dev/ttyUSB0?baud=115200 to a board on a serial line "
                    + "(default: $SPECTRUM_PEER, else peer= in ~/.config/spectrum/config).")
    public String peer;

    @Option(names = "--timeout", paramLabel = "MS", defaultValue = "2000",
            description = "How long to wait for each answer (default: ${DEFAULT-VALUE} ms).")
    long timeoutMillis;

    @Option(names = "--json", description = "Print JSON lines (same as --format json).")
    boolean json;

    @Option(names = {"-F", "--format"}, paramLabel = "FORMAT", defaultValue = "text",
            description = "text (default), json (one object per line: ts, path, value, unit, raw, seq, stale) or csv "
                    + "(those columns, with a header line).")
    OutputFormat format;

    /** The format asked for ({@code --json} is {@code --format json}). */
    public OutputFormat format() {
        return json ? OutputFormat.json : format;
    }

    /** True when the format asked for is JSON lines. */
    public boolean json() {
        return format() == OutputFormat.json;
    }

    /** The paths given as PATH arguments and {@code -t PATH} options; none is a usage error ("no path to WHAT" and why). */
    public static List<String> paths(CommandLine cl, List<String> positional, List<String> topics,
                                        String what, String why) {
        List<String> all = new ArrayList<>(positional);
        all.addAll(topics);
        if (all.isEmpty()) {
            throw new CommandLine.ParameterException(cl, "no path to " + what + ": give PATH or -t PATH" + why);
        }
        return all;
    }

    /** Refuses a bad pattern ({@link io.spectrum.client.Follower#vertexOf}) as a usage error (one line, exit 2) before anything is sent. */
    public static void checkPatterns(CommandLine cl, List<String> patterns) {
        for (String p : patterns) {
            try {
                io.spectrum.client.Follower.vertexOf(p);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(cl, "bad path '" + p + "': " + e.getMessage());
            }
        }
    }

    /** Dials the peer; a missing or bad address is a parameter error (exit 2) with the reason. */
    public PeerClient connect(CommandLine cl) {
        if (timeoutMillis <= 0) {
            throw new CommandLine.ParameterException(cl, "--timeout must be positive (was " + timeoutMillis + ")");
        }
        if (peer == null || peer.isBlank()) {
            throw new CommandLine.ParameterException(cl, "no node to talk to: give --peer HOST:PORT, or set SPECTRUM_PEER "
                    + "or peer=HOST:PORT in ~/.config/spectrum/config");
        }
        try {
            Link link = LinkSpec.dial(1, peer, LinkSettings.clientDefaults(), SystemClock.INSTANCE);
            return new PeerClient(link, 0, Duration.ofMillis(timeoutMillis));
        } catch (IllegalArgumentException e) { // the factory's one line says what to write
            String why = e.getMessage();
            throw new CommandLine.ParameterException(cl, "--peer " + (why.startsWith(peer.strip()) ? why : peer + ": " + why));
        } catch (IOException e) {
            throw new CommandLine.ParameterException(cl, "--peer " + peer + ": cannot connect: " + e.getMessage());
        }
    }
}
