package io.spectrum.hil;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.LinkStats;
import io.spectrum.link.PeerListener;
import io.spectrum.wire.WireError;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/** An in-memory link: records what is sent and answers through a scripted responder. */
public final class FakeLink implements Link {
    public final List<byte[]> sent = new ArrayList<>();
    private final ArrayDeque<byte[]> incoming = new ArrayDeque<>();
    private final LinkStats stats = new LinkStats();
    private Function<byte[], List<byte[]>> responder = f -> List.of();

    public void respond(Function<byte[], List<byte[]>> r) {
        responder = r;
    }

    public void push(byte[] frame) {
        incoming.add(frame);
    }

    @Override
    public int id() {
        return 1;
    }

    @Override
    public String name() {
        return "fake";
    }

    @Override
    public int send(int peer, byte[] buf, int off, int len) {
        byte[] f = Arrays.copyOfRange(buf, off, off + len);
        sent.add(f);
        incoming.addAll(responder.apply(f));
        return WireError.OK;
    }

    @Override
    public int poll(FrameHandler handler, int maxFrames) {
        int n = 0;
        while (n < maxFrames && !incoming.isEmpty()) {
            byte[] f = incoming.poll();
            handler.onFrame(this, 0, f, 0, f.length);
            n++;
        }
        return n;
    }

    @Override
    public int maxFrame() {
        return 4096;
    }

    @Override
    public void setPeerListener(PeerListener listener) {
    }

    @Override
    public LinkStats stats() {
        return stats;
    }

    @Override
    public void close() {
    }
}
