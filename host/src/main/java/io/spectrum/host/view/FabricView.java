package io.spectrum.host.view;

/**
 * What the dashboard shows beyond this host's own node: the MQTT bridge the host runs,
 * other hosts' trees as the broker holds them, and the host bus's counters. The host module knows neither MQTT nor the
 * bridge; whoever runs the host (the cli's {@code spectrum host --mqtt}) supplies this view.
 * Read-only: nothing here writes anywhere.
 *
 * <p>Implementations are thread-safe and return immutable values.
 */
public interface FabricView {
    /** No bridge, no remote hosts. */
    FabricView NONE = new FabricView() {
        @Override
        public BridgeView bridge() {
            return null;
        }

        @Override
        public RemoteView remote() {
            return null;
        }

        @Override
        public HostModel.Registration onChange(Runnable listener) {
            return () -> { };
        }
    };

    /** The bridge's state now; null when the host runs no bridge. Polled by the dashboard (not signalled). */
    BridgeView bridge();

    /** Other hosts' trees read from the broker, by name; null when the host does not read them. */
    RemoteView remote();

    /**
     * The host bus's counters now ({@code BusHost.stats()}, read on the bus's thread); null when
     * the host runs no bus ({@code spectrum host} without {@code --bus}).
     */
    default io.spectrum.bus.protocol.BusStats bus() {
        return null;
    }

    /**
     * Registers a listener called after a remote host's value or presence changed, or the remote
     * view lost or regained the broker. It runs on the
     * view's thread, so it must only signal, never do I/O. Returns a handle that unregisters it.
     */
    HostModel.Registration onChange(Runnable listener);
}
