package io.spectrum.examples.bus;

import io.spectrum.client.bus.BusClient;
import io.spectrum.bus.protocol.BusException;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;

/** The examples' shared command line: {@code SOCKET [NAME] [more…]}, and connecting to the bus there. */
final class Args {
    /** How long each bus operation waits for the bus's reply. */
    static final long TIMEOUT_MILLIS = 10_000;

    private final String[] args;
    private final String usage;

    Args(String[] args, String usage) {
        this.args = args;
        this.usage = usage;
        if (args.length < 1 || args[0].startsWith("-")) {
            throw new IllegalArgumentException("usage: " + usage);
        }
    }

    Path socket() {
        return Path.of(args[0]);
    }

    String get(int i, String def) {
        return i < args.length ? args[i] : def;
    }

    int intAt(int i, int def) {
        try {
            return i < args.length ? Integer.parseInt(args[i]) : def;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("argument " + (i + 1) + " must be a number, was " + args[i]
                    + "; usage: " + usage);
        }
    }

    static BusClient connect(Path socket, String name) throws BusException {
        return BusClient.connect(UnixDomainSocketAddress.of(socket), name, TIMEOUT_MILLIS);
    }

    /** Runs {@code body}: 0, or 1 after printing a refusal as one line, 2 for bad arguments. */
    static int run(String[] args, String usage, Main body) {
        try {
            body.run(new Args(args, usage));
            return 0;
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            return 2;
        } catch (BusException e) {
            System.err.println("bus: " + e.getMessage());
            return 1;
        } catch (Exception e) {
            System.err.println(e);
            return 1;
        }
    }

    /** A {@code main}'s ending: exits with {@code rc} when it is not 0. */
    static void exit(int rc) {
        if (rc != 0) {
            System.exit(rc);
        }
    }

    interface Main {
        void run(Args a) throws Exception;
    }
}
