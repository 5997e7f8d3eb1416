package io.spectrum.host.abp;

import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import io.spectrum.node.api.ValueListener;
import io.spectrum.time.ManualClock;
import io.spectrum.wide.TopicInfo;
import io.spectrum.wide.WideNode;
import io.spectrum.wide.WidePeer;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.WireError;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * ABP in-process: a connection is a {@link WidePeer} ({@link WideNode#connect}); publish is
 * {@link WidePeer#publish} (its five-argument form for {@code retain: false}); subscribe is a
 * subscription with the durability bit; subscriber_count is {@link WideNode#listenerCount}; list is
 * {@link WideNode#topics}; clear is {@link WideNode#clear}; the notices are the peer's
 * {@link io.spectrum.node.api.ActivityListener}. Everything happens on the test's thread, at once.
 */
final class InProcessAbp implements AbpFabric {
    private final ManualClock clock = new ManualClock(0);
    final WideNode node = new WideNode(WideNode.hostConfig().clock(clock).staleGraceNanos(GRACE).build());

    InProcessAbp() {
        clock.advanceMillis(5_000); // a non-zero unix time for the anonymous ids
    }

    @Override
    public AbpSession connect(String name) {
        return new Session(node.connect(name));
    }

    @Override
    public void advance(long nanos) {
        clock.advanceNanos(nanos);
        node.tick();
    }

    @Override
    public int ownerWrite(String path, byte[] tlv) {
        return node.write(NodePath.of(path), tlv, 0, tlv.length);
    }

    @Override
    public String lacks(Feature f) {
        return null;
    }

    @Override
    public void close() {
        node.close();
    }

    private final class Session implements AbpSession {
        private final WidePeer peer;
        private final List<String> deliveries = new ArrayList<>();
        private final List<String> notices = new ArrayList<>();
        /** One listener per connection: a repeated subscribe is the same subscription (ABP: idempotent). */
        private final ValueListener listener = (sub, v, seq, stale) ->
                deliveries.add(AbpScenarios.line(v.path(), v.copy(), seq, stale, v.deleted()));

        Session(WidePeer peer) {
            this.peer = peer;
            peer.setActivityListener((path, active, n) -> notices.add(path.path() + (active ? " active " : " idle ") + n));
        }

        @Override
        public String identity() {
            return peer.identity();
        }

        @Override
        public int publish(String topic, byte[] tlv, boolean retain) {
            return peer.publish(NodePath.of(topic), tlv, 0, tlv.length, retain);
        }

        @Override
        public int subscribe(String topic) {
            Subscription s = peer.subscribe(NodePath.of(topic), DeliveryPolicy.DURABILITY_REQUEST, listener);
            return s.error();
        }

        @Override
        public int unsubscribe(String topic) {
            return peer.unsubscribe(NodePath.of(topic));
        }

        @Override
        public int subscriberCount(String topic) {
            return node.listenerCount(NodePath.of(topic));
        }

        @Override
        public List<TopicInfo> list(String prefix) {
            return node.topics(NodePath.of(prefix));
        }

        @Override
        public int clear(String topic, boolean notify) {
            return node.clear(NodePath.of(topic), notify);
        }

        @Override
        public Read read(String topic) {
            NodePath p = NodePath.of(topic);
            byte[] v = node.valueCopy(p);
            return new Read(v == null ? WireError.PATH_NOT_FOUND : WireError.OK, v, v == null ? 0 : node.sequence(p),
                    node.isStale(p));
        }

        @Override
        public List<String> deliveries() {
            return List.copyOf(deliveries);
        }

        @Override
        public List<String> notices() {
            return List.copyOf(notices);
        }

        @Override
        public void pumpUntil(BooleanSupplier done, String what) {
            if (!done.getAsBoolean()) {
                throw new AssertionError("in-process, everything happens at once; never happened: " + what);
            }
        }

        @Override
        public void quiet() {
            // nothing is in flight in-process
        }

        @Override
        public void close() {
            peer.disconnect();
        }
    }
}
