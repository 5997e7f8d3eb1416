package io.spectrum.wire;

/**
 * A read-only flyweight over a FWD (0x0F) remote-operation envelope. Positional children:
 *
 * <pre>
 * [1] VALUE u8 op        exactly one byte: opcode = op &amp; 0x3F; bit 7 = mint request; bit 6 the
 *                        spare flag, which Spectrum's active/idle extension claims on a WRITE
 * [2] dst                PATH or PATH_REF
 * [3] FIELD              optional, recognised by type
 * [4] src                PATH (PATH_REF on some replies); always present, may be empty
 * then per opcode:
 *   READ  (0)  nothing
 *   WRITE (1)  payload TLV (any type but PATH_REF_REVERSE)
 *   AWAIT (2)  optional VALUE timeout ns (width-tolerant, 1..8 bytes; absent or empty = 1 s)
 *   REPLY (3)  VALUE u8 kind (0 RESULT, 1 ERROR) only when a 1-byte VALUE of 0/1, else kind
 *              RESULT and that child is the payload; then the payload
 * tail: PATH_REF_REVERSE (found by type), PATH_REF mint answer (a reply's last child)
 * </pre>
 *
 * {@link #wrap} returns SCHEMA_TYPE_MISMATCH when the entry is not a FWD container or the op is
 * not a 1-byte VALUE ({@code 01 00 01 00 <op>}), PATH_INVALID when dst or src is
 * missing or of the wrong type. Unknown opcodes (4..63) parse; a terminus answers them
 * {@code schema::type_mismatch}.
 *
 * <p>This is THE FWD reader: the node's terminus, its remote client, the command-line client, the
 * frame printer and the HIL suite all read FWD through it rather than walking the children
 * themselves. A flyweight: one instance is re-wrapped per frame and allocates nothing.
 */
public final class FwdView {
    /** Opcode 0: read the target's value (or field). */
    public static final int OP_READ = 0;
    /** Opcode 1: write the payload to the target. */
    public static final int OP_WRITE = 1;
    /** Opcode 2: wait for the target's next value, up to a timeout. */
    public static final int OP_AWAIT = 2;
    /** Opcode 3: the answer to a READ, WRITE or AWAIT, carrying a kind and a payload. */
    public static final int OP_REPLY = 3;
    /** Mask of the opcode in the op byte (bits 0-5). */
    public static final int OPCODE_MASK = 0x3F;
    /**
     * Bit 7 of the op byte: the sender asks the receiver to mint a PATH_REF for the route, answered
     * as a reply's trailing PATH_REF.
     */
    public static final int MINT = 0x80;
    /**
     * Bit 6 of the op byte: v1's spare flag. Spectrum reads it on a WRITE as "send me active/idle
     * notices for this vertex" (docs/extensions.md); v1 peers never set it.
     */
    public static final int ACTIVITY = 0x40;

    /** REPLY kind 0: the payload is the result. */
    public static final int KIND_RESULT = 0;
    /** REPLY kind 1: the payload is a STATUS or ERROR saying why the request was refused. */
    public static final int KIND_ERROR = 1;

    /** AWAIT timeout when the request carries none: 1 s. */
    public static final long DEFAULT_AWAIT_TIMEOUT_NS = 1_000_000_000L;

    private TlvIndex idx;
    private int entry = TlvIndex.NONE;
    private int opEntry;
    private int op;
    private int dst;
    private int field;
    private int src;
    private int timeoutEntry;
    private int kindEntry;
    private int kind;
    private int payload;
    private int pathRef;
    private int pathRefReverse;

    /**
     * Points the view at a FWD entry and reads its positional children.
     *
     * @return OK, SCHEMA_TYPE_MISMATCH when the entry is not a FWD container or the op is not a
     *     1-byte VALUE, PATH_INVALID when dst or src is missing or of the wrong type; on refusal every
     *     accessor answers NONE
     */
    public int wrap(TlvIndex index, int e) {
        idx = index;
        entry = TlvIndex.NONE;
        opEntry = dst = field = src = timeoutEntry = kindEntry = payload = pathRef = pathRefReverse = TlvIndex.NONE;
        op = 0;
        kind = KIND_RESULT;
        if (e < 0 || e >= index.count() || index.type(e) != TlvType.FWD || !index.isContainer(e)) {
            return WireError.SCHEMA_TYPE_MISMATCH;
        }
        int c = index.firstChild(e);
        if (c == TlvIndex.NONE || index.type(c) != TlvType.VALUE || index.isContainer(c) || index.bodyLength(c) != 1) {
            return WireError.SCHEMA_TYPE_MISMATCH;
        }
        opEntry = c;
        op = index.buffer()[index.bodyOffset(c)] & 0xFF;
        c = index.nextSibling(c);
        if (!isRoute(c)) {
            return WireError.PATH_INVALID;
        }
        dst = c;
        c = index.nextSibling(c);
        if (c != TlvIndex.NONE && index.type(c) == TlvType.FIELD) {
            field = c;
            c = index.nextSibling(c);
        }
        if (!isRoute(c)) {
            return WireError.PATH_INVALID;
        }
        src = c;
        c = index.nextSibling(c);
        // the tail: a PATH_REF_REVERSE anywhere after src, a PATH_REF as the last child of a reply
        int last = TlvIndex.NONE;
        for (int t = c; t != TlvIndex.NONE; t = index.nextSibling(t)) {
            if (index.type(t) == TlvType.PATH_REF_REVERSE && pathRefReverse == TlvIndex.NONE) {
                pathRefReverse = t;
            }
            last = t;
        }
        final int opcode = op & OPCODE_MASK;
        if (opcode == OP_REPLY && last != TlvIndex.NONE && index.type(last) == TlvType.PATH_REF) {
            pathRef = last;
        }
        if (c == pathRefReverse || c == pathRef) {
            c = TlvIndex.NONE;
        }
        switch (opcode) {
            case OP_WRITE:
                payload = c;
                break;
            case OP_AWAIT:
                if (c != TlvIndex.NONE && index.type(c) == TlvType.VALUE && !index.isContainer(c)
                        && index.bodyLength(c) >= 1) {
                    timeoutEntry = c;
                }
                break;
            case OP_REPLY:
                if (c != TlvIndex.NONE && index.type(c) == TlvType.VALUE && !index.isContainer(c)
                        && index.bodyLength(c) == 1 && (index.buffer()[index.bodyOffset(c)] & 0xFF) <= KIND_ERROR) {
                    kindEntry = c;
                    kind = index.buffer()[index.bodyOffset(c)] & 0xFF;
                    c = index.nextSibling(c);
                    if (c == pathRefReverse || c == pathRef) {
                        c = TlvIndex.NONE;
                    }
                }
                payload = c;
                break;
            default:
                break;
        }
        entry = e;
        return WireError.OK;
    }

    /**
     * A route slot holds a PATH or a PATH_REF, recognised by type. A PATH wrongly flagged PL=1 still
     * takes its slot: it is a bad address, which the resolver answers {@code path::invalid},
     * not a bad envelope.
     */
    private boolean isRoute(int c) {
        if (c == TlvIndex.NONE) {
            return false;
        }
        final int t = idx.type(c);
        return t == TlvType.PATH || t == TlvType.PATH_REF;
    }

    /** The index the view was last wrapped over. */
    public TlvIndex index() {
        return idx;
    }

    /** The wrapped FWD's index entry, or {@link TlvIndex#NONE} after a refused {@link #wrap}. */
    public int entry() {
        return entry;
    }

    /** The op VALUE's index entry, or NONE. */
    public int opEntry() {
        return opEntry;
    }

    /** The raw op byte. */
    public int op() {
        return op;
    }

    /** op &amp; 0x3F. */
    public int opcode() {
        return op & OPCODE_MASK;
    }

    /** True when bit 7 asks for a minted PATH_REF ({@link #MINT}). */
    public boolean mint() {
        return (op & MINT) != 0;
    }

    /** Bit 6 (the v1 spare flag): on a WRITE, the publisher asks for active/idle notices. */
    public boolean activity() {
        return (op & ACTIVITY) != 0;
    }

    /** The dst entry (a PATH, or a PATH_REF when {@link #dstIsPathRef()}), or NONE. */
    public int dst() {
        return dst;
    }

    /** True when dst is a PATH_REF (a minted reference) rather than a PATH. */
    public boolean dstIsPathRef() {
        return dst != TlvIndex.NONE && idx.type(dst) == TlvType.PATH_REF;
    }

    /** The FIELD entry, or NONE. */
    public int field() {
        return field;
    }

    /**
     * The src entry, the return route (a PATH, possibly empty, or a PATH_REF on some replies), or
     * NONE.
     */
    public int src() {
        return src;
    }

    /** True when src is a PATH_REF rather than a PATH. */
    public boolean srcIsPathRef() {
        return src != TlvIndex.NONE && idx.type(src) == TlvType.PATH_REF;
    }

    /** True when src is the empty PATH (no reply wanted). */
    public boolean srcEmpty() {
        return src != TlvIndex.NONE && idx.type(src) == TlvType.PATH && idx.bodyLength(src) == 0;
    }

    /** The payload entry (WRITE payload, REPLY payload), or NONE. */
    public int payload() {
        return payload;
    }

    /**
     * The first child after the payload (a WRITE's or REPLY's), where Spectrum's extension children
     * ride (e.g. a delivery's topic stamp), or NONE. The mint tails are not counted.
     */
    public int afterPayload() {
        if (payload == TlvIndex.NONE) {
            return TlvIndex.NONE;
        }
        final int c = idx.nextSibling(payload);
        return c == pathRef || c == pathRefReverse ? TlvIndex.NONE : c;
    }

    /** The AWAIT timeout VALUE entry, or NONE when the request carries none. */
    public int timeoutEntry() {
        return timeoutEntry;
    }

    /** AWAIT timeout in ns: the VALUE read width-tolerantly, or 1 s when absent. */
    public long awaitTimeoutNs() {
        return awaitTimeoutNs(DEFAULT_AWAIT_TIMEOUT_NS);
    }

    /** AWAIT timeout in ns: the VALUE read width-tolerantly, or {@code absent} when the request carries none. */
    public long awaitTimeoutNs(long absent) {
        return timeoutEntry == TlvIndex.NONE ? absent : idx.valueAsLong(timeoutEntry);
    }

    /** True when the request's dst is a PATH whose body equals {@code b[off, off+len)}. */
    public boolean dstEquals(byte[] b, int off, int len) {
        return dst != TlvIndex.NONE && idx.type(dst) == TlvType.PATH
                && Bytes.equals(idx.buffer(), idx.bodyOffset(dst), idx.bodyLength(dst), b, off, len);
    }

    /** The kind VALUE entry of a REPLY, or NONE when the reply carries none. */
    public int kindEntry() {
        return kindEntry;
    }

    /** KIND_RESULT or KIND_ERROR (RESULT when no kind child). */
    public int kind() {
        return kind;
    }

    /** The trailing PATH_REF mint answer of a reply, or NONE. */
    public int pathRef() {
        return pathRef;
    }

    /** The PATH_REF_REVERSE child of a forwarded mint request, or NONE. */
    public int pathRefReverse() {
        return pathRefReverse;
    }

    /** Name of an opcode for diagnostics. */
    public static String opName(int opcode) {
        switch (opcode & OPCODE_MASK) {
            case OP_READ: return "READ";
            case OP_WRITE: return "WRITE";
            case OP_AWAIT: return "AWAIT";
            case OP_REPLY: return "REPLY";
            default: return "OP" + (opcode & OPCODE_MASK);
        }
    }

    /**
     * The opcode of the FWD frame at {@code b[off, off+len)} read from its first child without
     * decoding the frame (a link's send path sorts deliveries from control traffic with it), or -1
     * when the frame is not a FWD whose first child is a 1-byte VALUE.
     */
    public static int peekOpcode(byte[] b, int off, int len) {
        if (len < 4 || (b[off] & 0xFF) != TlvType.FWD) {
            return -1;
        }
        int opt = b[off + 1] & 0xFF;
        if ((opt & Opt.PL) == 0) {
            return -1;
        }
        int c = off + Opt.headerSize(opt);
        if (c + 4 > off + len || (b[c] & 0xFF) != TlvType.VALUE) {
            return -1;
        }
        int copt = b[c + 1] & 0xFF;
        int h = Opt.headerSize(copt);
        int bl = (copt & Opt.LL) != 0 ? Bytes.i32(b, c + 2) : Bytes.u16(b, c + 2);
        if (bl != 1 || c + h + 1 > off + len) {
            return -1;
        }
        return b[c + h] & OPCODE_MASK;
    }
}
