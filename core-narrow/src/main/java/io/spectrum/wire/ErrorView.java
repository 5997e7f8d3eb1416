package io.spectrum.wire;

/**
 * A read-only flyweight over an ERROR (0x08): identity = first child, a VALUE u16 registry code or
 * a NAME string ({@code tr::vendor::…}); optional DESCRIPTION detail.
 */
public final class ErrorView {
    private TlvIndex idx;
    private int entry = TlvIndex.NONE;
    private int identity = TlvIndex.NONE;
    private int description = TlvIndex.NONE;
    private int code = -1;

    /** @return OK, or SCHEMA_TYPE_MISMATCH when not ERROR{VALUE u16 | NAME, …} */
    public int wrap(TlvIndex index, int e) {
        idx = index;
        entry = identity = description = TlvIndex.NONE;
        code = -1;
        if (e < 0 || e >= index.count() || index.type(e) != TlvType.ERROR || !index.isContainer(e)) {
            return WireError.SCHEMA_TYPE_MISMATCH;
        }
        final int first = index.firstChild(e);
        if (first == TlvIndex.NONE || index.isContainer(first)) {
            return WireError.SCHEMA_TYPE_MISMATCH;
        }
        code = valueCode(index, first);
        if (code < 0 && index.type(first) != TlvType.NAME) {
            return WireError.SCHEMA_TYPE_MISMATCH;
        }
        identity = first;
        description = index.findSibling(index.nextSibling(first), TlvType.DESCRIPTION);
        entry = e;
        return WireError.OK;
    }

    /** The registry code of an identity child: a VALUE u16 (exactly 2 bytes), else -1. */
    static int valueCode(TlvIndex x, int identity) {
        return identity != TlvIndex.NONE && x.type(identity) == TlvType.VALUE && !x.isContainer(identity)
                && x.bodyLength(identity) == 2 ? (int) x.valueAsLong(identity) : -1;
    }

    /** The wrapped ERROR's index entry, or {@link TlvIndex#NONE} after a refused {@link #wrap}. */
    public int entry() {
        return entry;
    }

    /** True for the string form (NAME identity). */
    public boolean isNamed() {
        return identity != TlvIndex.NONE && idx.type(identity) == TlvType.NAME;
    }

    /** The registry code (VALUE form), or -1 for the string form. */
    public int code() {
        return code;
    }

    /** The identity child (VALUE or NAME entry). */
    public int identityEntry() {
        return identity;
    }

    /**
     * True when the identity is the string form and its bytes equal {@code name} ({@code
     * tr::vendor::…}).
     */
    public boolean identityEquals(byte[] name) {
        return isNamed() && idx.payloadEquals(identity, name);
    }

    /** The ERROR's DESCRIPTION child entry, or {@link TlvIndex#NONE} when it has none. */
    public int description() {
        return description;
    }

    /** Identity text for diagnostics ({@code tr::path::not_found}, or the NAME). Allocates. */
    public String identityText() {
        if (isNamed()) {
            return Utf8.toString(idx.buffer(), idx.bodyOffset(identity), idx.bodyLength(identity));
        }
        final String id = WireError.identity(code);
        return id != null ? id : "0x" + Integer.toHexString(code);
    }
}
