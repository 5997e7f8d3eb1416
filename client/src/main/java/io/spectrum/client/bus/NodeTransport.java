package io.spectrum.client.bus;

import io.spectrum.client.Transport;

/**
 * The {@link Transport} of a bus client's node client ({@link BusClient#node()}): it sends through
 * the bus connection (the client's I/O thread puts the frames on the link in order with the bus
 * requests) and hands out the frames the bus relays back from the host's node, which that thread
 * set aside for it. Sending never blocks: a full queue answers FLOW_BACKPRESSURE, on which the
 * node client polls and sends again, as over any link. Closing it stops taking the node's frames;
 * the bus connection stays (the node keeps what this connection holds there until it closes).
 */
final class NodeTransport implements Transport {
    private final BusIo io;

    NodeTransport(BusIo io) {
        this.io = io;
    }

    @Override
    public int send(byte[] frame, int off, int len) {
        return io.sendNode(frame, off, len);
    }

    @Override
    public int poll(Sink sink, int max) {
        int n = 0;
        byte[] f;
        while (n < max && (f = io.pollNode()) != null) {
            sink.frame(f, 0, f.length);
            n++;
        }
        return n;
    }

    @Override
    public void close() {
        io.nodeOpen(false);
    }
}
