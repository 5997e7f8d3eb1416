package io.spectrum.testing;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.PeerListener;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Records frames and peer events for assertions (shared by the link modules' tests via the core-narrow test-jar). */
public final class Collector implements FrameHandler, PeerListener {
    public final List<byte[]> frames = new ArrayList<>();
    public final List<Integer> peers = new ArrayList<>();
    public final List<String> events = new ArrayList<>();

    @Override
    public void onFrame(Link link, int peer, byte[] buf, int off, int len) {
        frames.add(Arrays.copyOfRange(buf, off, off + len));
        peers.add(peer);
    }

    @Override
    public void onPeerUp(Link link, int peer) {
        events.add("up " + peer);
    }

    @Override
    public void onPeerDown(Link link, int peer) {
        events.add("down " + peer);
    }

    /** Polls until {@code n} frames arrived in total or 5 s passed (a guard against hangs, not a timing assertion). */
    public static void pollUntil(Link link, Collector c, int n) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (c.frames.size() < n && System.nanoTime() < deadline) {
            if (link.poll(c, 64) == 0) {
                Thread.sleep(1);
            }
        }
    }
}
