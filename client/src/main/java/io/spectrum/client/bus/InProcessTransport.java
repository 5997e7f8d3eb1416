package io.spectrum.client.bus;

import io.spectrum.client.Transport;
import io.spectrum.link.local.InProcessLink;

/** A {@link Transport} over one end of the bus's {@link InProcessLink} (a client in the host's JVM). */
public final class InProcessTransport implements Transport {
    private final InProcessLink.End end;

    /** A transport over {@code end}, an end this client now owns (closing the transport closes it). */
    public InProcessTransport(InProcessLink.End end) {
        this.end = end;
    }

    /** The end wakes {@code r} on each frame the bus sends it and when it closes. */
    @Override
    public boolean wakes(io.spectrum.link.Readiness r) {
        return end.setReadiness(r);
    }

    @Override
    public int send(byte[] frame, int off, int len) {
        return end.send(frame, off, len);
    }

    @Override
    public int poll(Sink sink, int max) {
        int n = 0;
        byte[] f;
        while (n < max && (f = end.poll()) != null) {
            sink.frame(f, 0, f.length);
            n++;
        }
        return n;
    }

    @Override
    public void close() {
        end.close();
    }
}
