package io.spectrum.cli.options;

import io.spectrum.host.HostConfig;
import picocli.CommandLine.Option;

/**
 * {@code spectrum host}'s host-bus options ({@code --bus PATH} and its companions), handed to the
 * host's configuration as they are; the host ({@code io.spectrum.host.Host}) checks and starts the bus.
 */
public final class HostBusFlags {
    @Option(names = "--bus", paramLabel = "PATH",
            description = "Also run the host bus on this Unix socket (e.g. $XDG_RUNTIME_DIR/spectrum/bus.sock; its "
                    + "directory is made if missing): programs on this host declare topics, publish, subscribe, "
                    + "serve and call there, and hand over artifacts by reference (docs/bus.md).")
    String path;

    @Option(names = "--bus-store", paramLabel = "DIR",
            description = "The bus's artifact store directory (default: PATH.store; its files of this run are removed "
                    + "when the host stops).")
    String store;

    @Option(names = "--bus-tcp", paramLabel = "HOST:PORT",
            description = "Also listen for bus clients on TCP there (a bare :PORT binds 127.0.0.1; a non-loopback "
                    + "address needs --bus-allow-remote).")
    String tcp;

    @Option(names = "--bus-allow-remote",
            description = "Let --bus-tcp listen on a non-loopback address (other hosts can then connect; give "
                    + "--grants).")
    boolean allowRemote;

    @Option(names = "--bus-grants", paramLabel = "FILE",
            description = "The same file as --grants, by its older name (it needs --bus): what each client name may do, "
                    + "on the bus and on the node's client doors alike (docs/host.md). Giving both with two files "
                    + "is an error.")
    String grants;

    @Option(names = "--bus-idle-timeout", paramLabel = "SECONDS",
            description = "Close a bus client that sent nothing for this long (default: 60; 0 = never). BusClient pings "
                    + "well within it, so a quiet but live client is kept (docs/bus.md, \"Limits\").")
    Double idleTimeout;

    @Option(names = "--bus-max-clients", paramLabel = "N",
            description = "Bus connections at once, 1 to 1024 (default: 64); one more is refused (docs/bus.md, "
                    + "\"Limits\").")
    Integer maxClients;

    /** Hands the bus options to the host's configuration as they are (the host checks them). */
    public void into(HostConfig.Builder b) {
        b.bus(path).busStore(store).busTcp(tcp).busAllowRemote(allowRemote).busGrants(grants);
        if (idleTimeout != null) {
            b.busIdleTimeoutMillis(idleTimeout < 0 ? -2 : Math.round(idleTimeout * 1000));
        }
        if (maxClients != null) {
            b.busMaxClients(maxClients < 1 ? -1 : maxClients);
        }
    }
}
