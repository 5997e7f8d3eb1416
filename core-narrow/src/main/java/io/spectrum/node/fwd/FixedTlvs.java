package io.spectrum.node.fwd;

import io.spectrum.wire.Names;

/**
 * The fixed TLVs of {@link Names} as arrays, for the FWD parts whose APIs take a value by (array,
 * offset, length): copied once from their one owner, never written, never handed out.
 */
final class FixedTlvs {
    /** {@link Names#EMPTY_STATUS}: OK, and the clear sentinel of {@code :subscribers[N]}. */
    static final byte[] EMPTY_STATUS = Names.EMPTY_STATUS.copy();
    /** {@link Names#EMPTY_SETTINGS}. */
    static final byte[] EMPTY_SETTINGS = Names.EMPTY_SETTINGS.copy();

    private FixedTlvs() {
    }
}
