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

    public int entry() {
        return entry;
    }

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
