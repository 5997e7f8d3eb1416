package io.spectrum.wire;

/**
 * A read-only flyweight over a STATUS (0x09): empty = OK (and the unsubscribe sentinel); otherwise
 * the FIRST ERROR child, at any position, is the status, with an optional DESCRIPTION.
 */
public final class StatusView {
    private final ErrorView error = new ErrorView();
    private TlvIndex idx;
    private int entry = TlvIndex.NONE;
    private int errorEntry = TlvIndex.NONE;
    private int description = TlvIndex.NONE;

    /** @return OK, or SCHEMA_TYPE_MISMATCH for a non-STATUS, a non-empty opaque STATUS or one whose first ERROR is malformed / missing */
    public int wrap(TlvIndex index, int e) {
        idx = index;
        entry = errorEntry = description = TlvIndex.NONE;
        if (e < 0 || e >= index.count() || index.type(e) != TlvType.STATUS) {
            return WireError.SCHEMA_TYPE_MISMATCH;
        }
        if (index.bodyLength(e) == 0) {
            entry = e;
            return WireError.OK;
        }
        if (!index.isContainer(e)) {
            return WireError.SCHEMA_TYPE_MISMATCH;
        }
        final int first = index.firstChild(e);
        final int err = index.findSibling(first, TlvType.ERROR);
        if (err == TlvIndex.NONE || error.wrap(index, err) != WireError.OK) {
            return WireError.SCHEMA_TYPE_MISMATCH;
        }
        errorEntry = err;
        description = index.findSibling(first, TlvType.DESCRIPTION);
        entry = e;
        return WireError.OK;
    }

    /**
     * The registry code an ERROR-kind reply carries, without a view object: {@code e} is the reply's
     * payload, a STATUS (its first ERROR child, at any position) or a bare ERROR; the code is that
     * ERROR's VALUE u16 identity. Returns {@code orElse} when {@code e} is NONE, malformed, or the
     * error is string-form (no registry code). The one error-code extraction every client uses.
     */
    public static int errorCode(TlvIndex x, int e, int orElse) {
        if (e < 0 || e >= x.count()) {
            return orElse;
        }
        int err = e;
        if (x.type(e) == TlvType.STATUS) {
            err = x.isContainer(e) ? x.findSibling(x.firstChild(e), TlvType.ERROR) : TlvIndex.NONE;
        }
        if (err == TlvIndex.NONE || x.type(err) != TlvType.ERROR || !x.isContainer(err)) {
            return orElse;
        }
        final int code = ErrorView.valueCode(x, x.firstChild(err));
        return code < 0 ? orElse : code;
    }

    /** The wrapped STATUS's index entry, or {@link TlvIndex#NONE} after a refused {@link #wrap}. */
    public int entry() {
        return entry;
    }

    /**
     * True for a wrapped empty STATUS (success, or the unsubscribe sentinel); false for an error or
     * a refused wrap.
     */
    public boolean isOk() {
        return entry != TlvIndex.NONE && errorEntry == TlvIndex.NONE;
    }

    /** The first ERROR child entry, or NONE. */
    public int errorEntry() {
        return errorEntry;
    }

    /** A view over the first ERROR (valid when {@link #errorEntry()} is not NONE). */
    public ErrorView error() {
        return error;
    }

    /** The status code: OK, the ERROR's registry code, or -1 for a string-form error. */
    public int code() {
        return errorEntry == TlvIndex.NONE ? WireError.OK : error.code();
    }

    /** The STATUS's own DESCRIPTION child, or NONE. */
    public int description() {
        return description;
    }
}
