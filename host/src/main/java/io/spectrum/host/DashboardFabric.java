package io.spectrum.host;

import io.spectrum.bridge.FabricMirror;
import io.spectrum.bridge.MqttBridge;
import io.spectrum.host.view.BridgeView;
import io.spectrum.host.view.FabricView;
import io.spectrum.host.view.HostModel;
import io.spectrum.host.view.RemoteHostView;
import io.spectrum.host.view.RemoteVertexView;
import io.spectrum.host.view.RemoteView;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code spectrum host --mqtt}'s dashboard view beyond the node: the in-process bridge's
 * {@link MqttBridge#stats()} as the host's {@link BridgeView}, and with {@code --mqtt-view} the
 * {@link FabricMirror}'s remote hosts as {@link RemoteHostView}s. Only translates: the dashboard
 * ({@code io.spectrum.host.view}) knows no bridge, the bridge knows no host (ModuleGraphTest).
 */
final class DashboardFabric implements FabricView {
    private final HostBridge bridge;
    private final FabricMirror mirror;

    /** {@code mirror} null: no remote hosts. */
    DashboardFabric(HostBridge bridge, FabricMirror mirror) {
        this.bridge = bridge;
        this.mirror = mirror;
    }

    @Override
    public BridgeView bridge() {
        MqttBridge.Stats s = bridge.stats();
        if (s == null) {
            return new BridgeView(bridge.broker(), false, 0, bridge.capacity(), 0, 0, 0, 0, 0); // not started yet
        }
        return new BridgeView(bridge.broker(), s.connected(), s.queued(), bridge.capacity(), s.dropped(), s.coalesced(), s.published(),
                s.reconnects(), s.values());
    }

    @Override
    public RemoteView remote() {
        if (mirror == null) {
            return null;
        }
        List<RemoteHostView> out = new ArrayList<>();
        for (FabricMirror.Host h : mirror.hosts()) {
            List<RemoteVertexView> vs = new ArrayList<>(h.vertices().size());
            for (FabricMirror.Vertex v : h.vertices()) {
                vs.add(new RemoteVertexView(v.path(), v.board(), v.text(), v.unit(), v.seq(), v.stale(), v.publisher(), v.ts()));
            }
            out.add(new RemoteHostView(h.name(), h.presenceKnown(), h.online(), vs));
        }
        return new RemoteView(bridge.broker(), mirror.connected(), mirror.capacity(), mirror.refused(), out);
    }

    @Override
    public HostModel.Registration onChange(Runnable listener) {
        if (mirror == null) {
            return () -> { };
        }
        AutoCloseable r = mirror.onChange(listener);
        return () -> {
            try {
                r.close();
            } catch (Exception e) {
                // removing a listener does not fail
            }
        };
    }
}
