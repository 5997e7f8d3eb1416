package io.spectrum.hil;

import io.spectrum.client.Reply;
import io.spectrum.hil.oracle.Tlv;
import io.spectrum.wire.WireError;

/** Assertions for scenarios; each failure is a {@link HilFailure} with a message a reader can act on. */
public final class Check {
    private Check() {
    }

    /** Fails with {@code message} unless {@code condition} holds. */
    public static void that(boolean condition, String message) {
        if (!condition) {
            throw new HilFailure(message);
        }
    }

    /**
     * Fails unless {@code actual} equals {@code expected} (both may be null); the message names {@code what} and both
     * values.
     */
    public static void equal(Object expected, Object actual, String what) {
        if (expected == null ? actual != null : !expected.equals(actual)) {
            throw new HilFailure(what + ": expected " + expected + " but was " + actual);
        }
    }

    /** Returns {@code r} when it is a RESULT; fails otherwise, naming {@code what} and the reply. */
    public static Reply result(Reply r, String what) {
        if (!r.ok()) {
            throw new HilFailure(what + ": expected RESULT but got " + r);
        }
        return r;
    }

    /**
     * Returns {@code r} when it is an ERROR with exactly {@code code}; fails otherwise, naming the expected code's
     * identity.
     */
    public static Reply error(Reply r, int code, String what) {
        if (!r.isError() || r.code() != code) {
            throw new HilFailure(what + ": expected ERROR " + WireError.identity(code) + " but got " + r);
        }
        return r;
    }

    /** A RESULT's value as an oracle tree (null for a bare acknowledgement). */
    public static Tlv value(Reply r, String what) {
        byte[] v = result(r, what).value();
        return v == null ? null : Tlv.decode(v);
    }

    /** The transport took the frame. */
    public static void sent(int rc, String what) {
        if (rc != WireError.OK) {
            throw new HilFailure(what + ": the link refused it: " + WireError.identity(rc));
        }
    }

    /** A failure to throw ({@code throw Check.fail(...)}), for a branch the compiler must see end. */
    public static HilFailure fail(String message) {
        return new HilFailure(message);
    }
}
