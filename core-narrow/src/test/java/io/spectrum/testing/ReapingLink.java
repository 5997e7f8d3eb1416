package io.spectrum.testing;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.LinkStats;
import io.spectrum.link.LivenessProbe;
import io.spectrum.link.PeerListener;
import io.spectrum.link.PeerLiveness;
import io.spectrum.time.Clock;

/**
 * One end of a {@link MemoryLink} pair with the links' own liveness rules ({@link PeerLiveness}, as a
 * UDP or serial link applies them) on the test's clock: a peer heard is up; a peer quiet for the ping
 * interval is probed (the node's caps ping); a peer silent past the timeout is reported down, and the
 * node reaps what it held; a poll that comes after a gap past the timeout (the owner was stalled)
 * reports the peer down first, since it has timed this end out.
 */
public final class ReapingLink implements Link {
    private final MemoryLink end;
    private final Clock clock;
    private final PeerLiveness liveness;
    private FrameHandler handler;
    private final FrameHandler heard = (l, peer, buf, off, len) -> {
        liveness().heard(peer, clock().nanoTime());
        handler.onFrame(this, peer, buf, off, len);
    };

    /** {@code end} with a peer timeout and a ping interval (ns) on {@code clock}. */
    public ReapingLink(MemoryLink end, Clock clock, long timeoutNanos, long pingNanos) {
        this.end = end;
        this.clock = clock;
        this.liveness = new PeerLiveness(this, 1, timeoutNanos, pingNanos, false, clock.nanoTime());
    }

    private PeerLiveness liveness() {
        return liveness;
    }

    private Clock clock() {
        return clock;
    }

    @Override
    public int id() {
        return end.id();
    }

    @Override
    public String name() {
        return "reaping " + end.name();
    }

    @Override
    public int send(int peer, byte[] buf, int off, int len) {
        return end.send(peer, buf, off, len);
    }

    @Override
    public int poll(FrameHandler h, int maxFrames) {
        handler = h;
        liveness.polled(clock.nanoTime());
        int n = end.poll(heard, maxFrames);
        liveness.check(clock.nanoTime());
        return n;
    }

    @Override
    public boolean isPeerUp(int peer) {
        return liveness.isUp(peer);
    }

    @Override
    public int maxFrame() {
        return end.maxFrame();
    }

    @Override
    public void setPeerListener(PeerListener listener) {
        liveness.setListener(listener);
    }

    @Override
    public void setLivenessProbe(LivenessProbe probe) {
        liveness.setProbe(probe);
    }

    @Override
    public LinkStats stats() {
        return end.stats();
    }

    @Override
    public void close() {
        end.close();
    }
}
