package io.spectrum.node.api;

import io.spectrum.wire.WireError;

/**
 * The node's return convention (see the {@code io.spectrum.node.api} package Javadoc) in code: a
 * quantity is {@code >= 0} or a negated {@link WireError} code, a status is a {@link WireError}
 * code. These are the only conversions between the two shapes.
 */
public final class NodeResult {
    private NodeResult() {
    }

    /** A refusal code as a quantity's result: {@code -code} (code must be a refusal, not OK). */
    public static int refusal(int code) {
        return -code;
    }

    /** True when a quantity's result is a refusal. */
    public static boolean refused(int result) {
        return result < 0;
    }

    /** A quantity's result as a status: OK for a quantity, else its refusal code. */
    public static int code(int result) {
        return result < 0 ? -result : WireError.OK;
    }
}
