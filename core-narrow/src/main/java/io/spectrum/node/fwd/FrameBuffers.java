package io.spectrum.node.fwd;

import io.spectrum.wire.TlvWriter;

/**
 * The node's outgoing frame memory, sized once: the transmit buffer every reply and delivery is
 * built in, a scratch buffer (renderings, activity notices) and the one writer over them.
 */
final class FrameBuffers {
    final byte[] tx;
    final byte[] scratch;
    private final TlvWriter w;

    /** {@code writerDepth}: open containers the writer can hold (the composed READ's walk stack). */
    FrameBuffers(int frameBytes, int writerDepth) {
        tx = new byte[frameBytes];
        scratch = new byte[frameBytes];
        w = new TlvWriter(writerDepth);
    }

    /** The writer wrapped over the whole transmit buffer. */
    TlvWriter txWriter() {
        return w.wrap(tx, 0, tx.length);
    }

    /** The same writer wrapped over a caller's buffer (local composed read). */
    TlvWriter writerOver(byte[] b, int off, int cap) {
        return w.wrap(b, off, cap);
    }

    /** The same writer wrapped over the whole scratch buffer. */
    TlvWriter scratchWriter() {
        return w.wrap(scratch, 0, scratch.length);
    }
}
