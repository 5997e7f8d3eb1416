package io.spectrum.host.view;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A {@link FabricView} a test sets by hand: a bridge's counters and remote hosts, changes signalled like the real one. */
public final class StubFabric implements FabricView {
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private volatile BridgeView bridge;
    private volatile List<RemoteHostView> remote = List.of();

    /** Sets the bridge's counters (not signalled: the dashboard polls them). */
    public void bridge(BridgeView b) {
        bridge = b;
    }

    /** Sets the remote hosts and signals the change. */
    public void remote(List<RemoteHostView> hosts) {
        remote = List.copyOf(hosts);
        listeners.forEach(Runnable::run);
    }

    @Override
    public BridgeView bridge() {
        return bridge;
    }

    @Override
    public List<RemoteHostView> remoteHosts() {
        return remote;
    }

    @Override
    public HostModel.Registration onChange(Runnable listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }
}
