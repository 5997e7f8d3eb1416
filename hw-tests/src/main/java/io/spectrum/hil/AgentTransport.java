package io.spectrum.hil;

import io.spectrum.client.Transport;
import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;

import java.util.function.IntSupplier;

/**
 * The client's transport on a link that the host's node loop polls: sending goes straight to the
 * link, and polling runs one duty cycle of the runtime's loop on the caller's thread
 * ({@code NodeAgent.onCallerThread()}), whose frame tap ({@link #tap()}) hands every frame the board
 * sent to the client before the host node sees it.
 */
final class AgentTransport implements Transport {
    private final Link link;
    private final int peer;
    private final FrameHandler tap = this::onFrame;
    private IntSupplier dutyCycle;
    private Sink sink;

    AgentTransport(Link link, int peer) {
        this.link = link;
        this.peer = peer;
    }

    /** The handler the node loop calls with each received frame. */
    FrameHandler tap() {
        return tap;
    }

    /** One duty cycle of the node loop per poll. */
    void driveWith(IntSupplier cycle) {
        this.dutyCycle = cycle;
    }

    @Override
    public int send(byte[] frame, int off, int len) {
        return link.send(peer, frame, off, len);
    }

    @Override
    public int poll(Sink s, int max) {
        sink = s;
        try {
            return dutyCycle.getAsInt();
        } finally {
            sink = null;
        }
    }

    private void onFrame(Link l, int p, byte[] buf, int off, int len) {
        if (sink != null) {
            sink.frame(buf, off, len);
        }
    }

    @Override
    public void close() {
        link.close();
    }
}
