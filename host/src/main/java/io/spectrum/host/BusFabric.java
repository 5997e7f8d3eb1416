package io.spectrum.host;

import io.spectrum.host.view.BridgeView;
import io.spectrum.host.view.FabricView;
import io.spectrum.host.view.HostModel;
import io.spectrum.host.view.RemoteView;
import io.spectrum.bus.server.BusHost;
import io.spectrum.bus.protocol.BusStats;

/**
 * {@code spectrum host --bus}'s dashboard view: {@code base}'s bridge and remote hosts, plus the
 * running bus's {@link BusHost#stats()} (thread-safe; null before the bus starts, after it stops,
 * or when its thread does not answer).
 */
final class BusFabric implements FabricView {
    private final FabricView base;
    private volatile BusHost host;

    BusFabric(FabricView base) {
        this.base = base;
    }

    /** The bus whose counters to show (null: none). */
    void host(BusHost h) {
        host = h;
    }

    @Override
    public BridgeView bridge() {
        return base.bridge();
    }

    @Override
    public RemoteView remote() {
        return base.remote();
    }

    @Override
    public BusStats bus() {
        BusHost h = host;
        if (h == null) {
            return null;
        }
        try {
            return h.stats();
        } catch (IllegalStateException e) {
            return null; // stopping
        }
    }

    @Override
    public HostModel.Registration onChange(Runnable listener) {
        return base.onChange(listener);
    }
}
