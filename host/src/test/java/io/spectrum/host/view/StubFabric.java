package io.spectrum.host.view;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A {@link FabricView} a test sets by hand: a bridge's counters and remote hosts, changes signalled like the real one. */
public final class StubFabric implements FabricView {
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private volatile BridgeView bridge;
    private volatile RemoteView remote;

    /** Sets the bridge's counters (not signalled: the dashboard polls them). */
    public void bridge(BridgeView b) {
        bridge = b;
    }

    /** Sets the remote hosts (read from a connected broker or not) and signals the change. */
    public void remote(boolean connected, List<RemoteHostView> hosts) {
        remote = new RemoteView("mqtt://127.0.0.1:1883", connected, 10_000, 0, hosts);
        listeners.forEach(Runnable::run);
    }

    @Override
    public BridgeView bridge() {
        return bridge;
    }

    @Override
    public RemoteView remote() {
        return remote;
    }

    @Override
    public HostModel.Registration onChange(Runnable listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }
}
