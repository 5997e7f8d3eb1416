package io.spectrum.host.view;

import java.util.List;

/**
 * What the dashboard shows beyond this host's own node (issue 15): the MQTT bridge the host runs,
 * and other hosts' trees as the broker holds them. The host module knows neither MQTT nor the
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
        public List<RemoteHostView> remoteHosts() {
            return List.of();
        }

        @Override
        public HostModel.Registration onChange(Runnable listener) {
            return () -> { };
        }
    };

    /** The bridge's state now; null when the host runs no bridge. Polled by the dashboard (not signalled). */
    BridgeView bridge();

    /** Other hosts' trees read from the broker, sorted by name; empty when the host does not read them. */
    List<RemoteHostView> remoteHosts();

    /**
     * Registers a listener called after a remote host's value or presence changed. It runs on the
     * view's thread, so it must only signal, never do I/O. Returns a handle that unregisters it.
     */
    HostModel.Registration onChange(Runnable listener);
}
