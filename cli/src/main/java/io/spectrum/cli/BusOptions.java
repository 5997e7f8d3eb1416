package io.spectrum.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spectrum.client.bus.BusClient;
import io.spectrum.bus.protocol.BusException;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.io.PrintWriter;

/**
 * The options every host-bus command shares ({@code call}, {@code services}, {@code artifact}):
 * {@code --bus PATH} (default {@code $SPECTRUM_BUS}), {@code --timeout MS}, {@code --name NAME} and {@code --json}, the
 * connection, and how a failure is printed: one line on stderr ({@code spectrum call: NO_SERVICE:
 * ...}, or {@code {"ok":false,"error":CODE,"message":...}} with {@code --json}); exit 2 when the bus
 * cannot be reached, 1 when it refused.
 */
public final class BusOptions {
    /** Exit code of a refusal by the bus (or a bus lost mid-command). */
    static final int REFUSED = 1;
    /** Exit code of bad arguments or a bus that cannot be reached. */
    static final int UNREACHABLE = 2;

    @Option(names = "--bus", paramLabel = "PATH", defaultValue = "${env:SPECTRUM_BUS}",
            description = "The host bus's Unix socket (spectrum host --bus PATH; default: $SPECTRUM_BUS), or its link "
                    + "URI: unix:///PATH, tcp://HOST:PORT for its --bus-tcp socket.")
    String path;

    @Option(names = "--timeout", paramLabel = "MS", defaultValue = "5000",
            description = "How long to wait for the bus's answers (default: ${DEFAULT-VALUE} ms).")
    long timeoutMillis;

    @Option(names = "--name", paramLabel = "NAME",
            description = "Connect as this client name (what --bus-grants grants by; default: anonymous).")
    String name;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    /** A usage failure (no --bus, a bad timeout) as picocli's one-line usage error. */
    void check(CommandLine cl) {
        if (path == null || path.isBlank()) {
            throw new CommandLine.ParameterException(cl, "no bus: give --bus PATH (the socket of spectrum host --bus) "
                    + "or set SPECTRUM_BUS");
        }
        if (timeoutMillis <= 0) {
            throw new CommandLine.ParameterException(cl, "--timeout must be positive");
        }
    }

    /** Connects as {@code --name} (or anonymously); an unreachable bus is a {@link Failure} with exit 2. */
    BusClient connect() throws Failure {
        try {
            return BusClient.connect(path, name, timeoutMillis); // a socket path, unix:///PATH or tcp://HOST:PORT
        } catch (BusException e) {
            throw new Failure(UNREACHABLE, e.code().name(), e.getMessage());
        } catch (IllegalArgumentException e) {
            String why = e.getMessage();
            throw new Failure(UNREACHABLE, "usage", "--bus " + (why.startsWith(path.strip()) ? why : path + ": " + why));
        }
    }

    /** What a bus command does once connected; returns its exit code. */
    @FunctionalInterface
    interface Session {
        int run(BusClient c) throws BusException, Failure, InterruptedException;
    }

    /**
     * Connects ({@link #connect}), runs {@code session} and closes the connection: a bus refusal
     * is exit 1, an interrupt a lost bus (exit 1), and every {@link Failure} is printed as its one
     * line ({@link #print}) with its exit code.
     */
    int run(CommandLine cl, Session session) {
        try (BusClient c = connect()) {
            try {
                return session.run(c);
            } catch (BusException e) {
                throw refused(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Failure(REFUSED, "ROUTER_LOST", "interrupted");
            }
        } catch (Failure f) {
            return print(cl, f);
        }
    }

    /** A bus refusal as a failure with exit 1. */
    static Failure refused(BusException e) {
        return new Failure(REFUSED, e.code().name(), e.getMessage());
    }

    /** Prints {@code f} as one line on stderr and returns its exit code. */
    int print(CommandLine cl, Failure f) {
        PrintWriter err = cl.getErr();
        if (json) {
            ObjectNode o = ClientOutput.JSON.createObjectNode();
            o.put("ok", false);
            o.put("error", f.kind);
            o.put("message", f.getMessage());
            err.println(o);
        } else {
            err.println(cl.getCommandSpec().qualifiedName() + ": " + f.kind + ": " + f.getMessage());
        }
        err.flush();
        return f.exitCode;
    }

    /** The first line of {@code message} without a leading {@code KIND: } (a BusException's message starts with its code). */
    private static String line(String kind, String message) {
        String m = message == null ? kind : message.lines().findFirst().orElse(kind);
        return m.startsWith(kind + ": ") ? m.substring(kind.length() + 2) : m;
    }

    /** A command's failure: its exit code, its kind (a bus code or usage/io) and one line. */
    static final class Failure extends Exception {
        final int exitCode;
        final String kind;

        Failure(int exitCode, String kind, String message) {
            super(line(kind, message), null, false, false);
            this.exitCode = exitCode;
            this.kind = kind;
        }
    }
}
