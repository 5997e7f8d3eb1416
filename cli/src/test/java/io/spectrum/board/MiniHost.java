package io.spectrum.board;

import io.spectrum.runtime.NodeLoop;
import io.spectrum.link.Link;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.ServingNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import io.spectrum.node.api.VertexValue;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.WireError;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The minimal host: a node that subscribes to given vertices on each connected board and reports
 * every update. Board {@code i}'s vertex {@code /temp} lands on the host's
 * {@code /boards/<i>/temp}; the node re-subscribes by itself when a board comes back after its
 * link lost it. The process tests run it in and out of process (a test fixture, not the host product).
 */
public final class MiniHost implements AutoCloseable {
    /** Told of every update, on the node thread. */
    public interface UpdateListener {
        void onUpdate(String board, String path, String value, long seq, boolean stale);
    }

    /** One remote subscription this host made. */
    public record Watch(Link link, String board, String remotePath, NodePath target, int handle) { }

    private final NodeLoop loop;
    private final UpdateListener listener;
    private final List<Watch> watches = new ArrayList<>();
    private final List<Subscription> local = new ArrayList<>();
    private int boards;

    public MiniHost(String name, UpdateListener listener) {
        this(name, listener, NodeConfig.builder().remoteWritesToUndeclared(true).build()); // a mirror
    }

    public MiniHost(String name, UpdateListener listener, NodeConfig config) {
        this.loop = new NodeLoop(name, new NarrowNode(config), null);
        this.listener = listener;
    }

    /** Connects a board over {@code link} (peer 0: a dialer or a serial line) and subscribes {@code paths}. */
    public void addBoard(Link link, List<String> paths) {
        loop.attach(link);
        int b = boards++;
        ServingNode node = loop.node();
        String board = link.name();
        for (String p : paths) {
            NodePath target = NodePath.of("/boards/" + b + p);
            int h = node.subscribeRemote(link, 0, NodePath.of(p), target, DeliveryPolicy.DURABILITY_REQUEST);
            if (h < 0) {
                throw new IllegalStateException("subscribe " + p + " on " + board + ": " + WireError.identity(-h));
            }
            watches.add(new Watch(link, board, p, target, h));
            Subscription s = node.subscribe(target, 0, (sub, v, seq, stale) ->
                    listener.onUpdate(board, p, format(v), seq, stale));
            local.add(s);
        }
    }

    public void start() {
        loop.start();
    }

    public NodeLoop loop() {
        return loop;
    }

    public List<Watch> watches() {
        return watches;
    }

    /** A value TLV as text: an unsigned number for VALUE up to 8 bytes, a NAME as text, else hex. */
    static String format(VertexValue v) {
        if (v.deleted()) {
            return "(deleted)";
        }
        byte[] b = v.copy();
        int off = 0;
        int type = b[off] & 0xFF;
        int opt = b[off + 1] & 0xFF;
        int header = (opt & 0x08) != 0 ? 6 : 4;
        int len = v.length() - header;
        int body = off + header;
        if (type == 0x01 && len >= 1 && len <= 8) {
            long x = 0;
            for (int i = 0; i < len; i++) {
                x |= (b[body + i] & 0xFFL) << (8 * i);
            }
            return Long.toUnsignedString(x);
        }
        if (type == 0x02) {
            return "\"" + new String(b, body, len, StandardCharsets.UTF_8) + "\"";
        }
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < v.length(); i++) {
            s.append(String.format("%02x", b[off + i]));
        }
        return s.toString();
    }

    @Override
    public void close() {
        loop.close();
    }
}
