package io.spectrum.node;

import io.spectrum.wire.TlvWriter;

/**
 * The node's outgoing frame memory, sized once: the transmit buffer every reply and delivery is
 * built in, a scratch buffer (renderings, activity notices) and the one writer over them.
 */
final class FrameBuffers {
    final byte[] tx;
    final byte[] scratch;
    private final TlvWriter w = new TlvWriter(16);

    FrameBuffers(int frameBytes) {
        tx = new byte[frameBytes];
        scratch = new byte[frameBytes];
    }

    /** The writer wrapped over the whole transmit buffer. */
    TlvWriter txWriter() {
        return w.wrap(tx, 0, tx.length);
    }

    /** The same writer wrapped over the whole scratch buffer. */
    TlvWriter scratchWriter() {
        return w.wrap(scratch, 0, scratch.length);
    }
}
