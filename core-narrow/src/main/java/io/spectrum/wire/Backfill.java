package io.spectrum.wire;

/**
 * The bytes of backfill (docs/extensions.md "Backfill"), the one writer and reader of each: a node
 * that keeps its last values per declared vertex says so in its {@code $node/caps}
 * ({@code spectrum.backfill} VALUE u16 depth, a {@code spectrum.*} key a plain v1 peer never sees); a
 * peer asks with a READ of the vertex whose trailing child (the announcement,
 * {@link Extensions#announceAskingBackfill}) also holds {@code spectrum.backfill} VALUE u64
 * {@code after}; the node answers RESULT with one SETTINGS:
 *
 * <pre>
 * 0B 40 LL LL
 *    NAME "spectrum.backfill"  VALUE u64 last      the vertex's sequence now
 *    NAME "evicted"            VALUE u64 evicted   the highest sequence no longer held (0: none lost)
 *    then per value held with seq &gt; after, oldest first, as many as fit one frame:
 *    NAME "seq"     VALUE u64 seq
 *    NAME "age"     VALUE u64 ms                   how long ago it was published, on the node's clock
 *   [NAME "origin"  VALUE u64 ms]                  its origin time, when it had one
 *    NAME "value"   &lt;the value TLV&gt;
 * </pre>
 *
 * Allocation-free: writers write into a caller's {@link TlvWriter}, {@link #wrapAnswer} and
 * {@link #next} re-point this reader over a decoded answer.
 */
public final class Backfill {
    /** Bytes an entry's fixed pairs take: seq and age (NAME 4+3, VALUE 4+8 each), and the value's key. */
    private static final int ENTRY_FIXED = 2 * (4 + 3 + 4 + 8) + 4 + 5;
    /** Bytes of the origin pair. */
    private static final int ORIGIN_BYTES = 4 + 6 + 4 + 8;

    private final SettingsReader reader = new SettingsReader();
    private TlvIndex x;
    private long last;
    private long evicted;
    private int cursor = TlvIndex.NONE;
    private long seq;
    private long age;
    private long origin;
    private int value = TlvIndex.NONE;

    /**
     * The sequence a request asks backfill after: the {@code spectrum.backfill} VALUE u64 of the first
     * SETTINGS among {@code first} and its following siblings (the request's trailing child); -1 when it
     * asks none (no such pair, or not exactly 8 bytes, or above 2^63).
     */
    public long asked(TlvIndex index, int first) {
        for (int c = first; c != TlvIndex.NONE; c = index.nextSibling(c)) {
            if (index.type(c) == TlvType.SETTINGS && index.isContainer(c)) {
                if (reader.wrap(index, c) != WireError.OK) {
                    return -1;
                }
                final int v = reader.findValue(Names.BACKFILL, 8);
                return v == TlvIndex.NONE ? -1 : Math.max(-1, index.valueAsLong(v));
            }
        }
        return -1;
    }

    /** Writes the caps pair of a node that keeps {@code depth} values per declared vertex. */
    public static TlvWriter capsPair(TlvWriter w, int depth) {
        return w.leaf(TlvType.NAME, Names.BACKFILL).value(depth, 2);
    }

    /**
     * The depth a {@code $node/caps} answer (the SETTINGS at {@code entry}) offers: its
     * {@code spectrum.backfill} VALUE u16, 0 when it offers none (a plain v1 node, a node with backfill
     * off, an answer that is no SETTINGS).
     */
    public int offered(TlvIndex index, int entry) {
        if (reader.wrap(index, entry) != WireError.OK) {
            return 0;
        }
        return reader.u16(Names.BACKFILL, 0);
    }

    /** Begins the answer's SETTINGS with its two head pairs; the caller adds entries and ends it. */
    public static TlvWriter beginAnswer(TlvWriter w, long last, long evicted) {
        return w.begin(TlvType.SETTINGS).leaf(TlvType.NAME, Names.BACKFILL).value(last, 8)
                .leaf(TlvType.NAME, Names.BACKFILL_EVICTED).value(evicted, 8);
    }

    /** Bytes {@link #entry} writes for a value TLV of {@code len} bytes. */
    public static int entryBytes(int len, long origin) {
        return ENTRY_FIXED + (origin > 0 ? ORIGIN_BYTES : 0) + len;
    }

    /** Writes one entry of the answer. */
    public static TlvWriter entry(TlvWriter w, long seq, long ageMs, long origin, byte[] b, int off, int len) {
        w.leaf(TlvType.NAME, Names.STAMP_SEQ).value(seq, 8).leaf(TlvType.NAME, Names.BACKFILL_AGE).value(ageMs, 8);
        if (origin > 0) {
            w.leaf(TlvType.NAME, Names.STAMP_ORIGIN).value(origin, 8);
        }
        return w.leaf(TlvType.NAME, Names.BACKFILL_VALUE).raw(b, off, len);
    }

    // ------------------------------------------------------------------ reading an answer

    /**
     * Points the reader at a RESULT payload {@code entry} of {@code index}. True when it is a backfill
     * answer (a SETTINGS whose first pair is {@code spectrum.backfill} VALUE u64 and whose second is
     * {@code evicted}); a node that does not know backfill answers the plain value, which is none.
     */
    public boolean wrapAnswer(TlvIndex index, int entry) {
        x = index;
        cursor = TlvIndex.NONE;
        if (reader.wrap(index, entry) != WireError.OK) {
            return false;
        }
        final int k = reader.firstKey();
        if (k == TlvIndex.NONE || !index.payloadEquals(k, Names.BACKFILL) || !u64(reader.valueOf(k))) {
            return false;
        }
        final int e = reader.nextKey(k);
        if (e == TlvIndex.NONE || !index.payloadEquals(e, Names.BACKFILL_EVICTED) || !u64(reader.valueOf(e))) {
            return false;
        }
        last = index.valueAsLong(reader.valueOf(k));
        evicted = index.valueAsLong(reader.valueOf(e));
        cursor = reader.nextKey(e);
        return true;
    }

    private boolean u64(int v) {
        return v != TlvIndex.NONE && x.type(v) == TlvType.VALUE && x.bodyLength(v) == 8;
    }

    /** The vertex's sequence when the answer was made. */
    public long last() {
        return last;
    }

    /** The highest sequence the node no longer held (0: none lost). */
    public long evicted() {
        return evicted;
    }

    /**
     * Moves to the next entry. False at the end, or at a malformed entry (a pair out of order, a VALUE
     * of the wrong width): the rest is not read.
     */
    public boolean next() {
        int k = cursor;
        if (k == TlvIndex.NONE || !x.payloadEquals(k, Names.STAMP_SEQ) || !u64(reader.valueOf(k))) {
            cursor = TlvIndex.NONE;
            return false;
        }
        seq = x.valueAsLong(reader.valueOf(k));
        k = reader.nextKey(k);
        if (k == TlvIndex.NONE || !x.payloadEquals(k, Names.BACKFILL_AGE) || !u64(reader.valueOf(k))) {
            cursor = TlvIndex.NONE;
            return false;
        }
        age = x.valueAsLong(reader.valueOf(k));
        k = reader.nextKey(k);
        origin = 0;
        if (k != TlvIndex.NONE && x.payloadEquals(k, Names.STAMP_ORIGIN)) {
            if (!u64(reader.valueOf(k))) {
                cursor = TlvIndex.NONE;
                return false;
            }
            origin = x.valueAsLong(reader.valueOf(k));
            k = reader.nextKey(k);
        }
        if (k == TlvIndex.NONE || !x.payloadEquals(k, Names.BACKFILL_VALUE)) {
            cursor = TlvIndex.NONE;
            return false;
        }
        value = reader.valueOf(k);
        cursor = reader.nextKey(k);
        return true;
    }

    /** The entry's sequence at the node. */
    public long seq() {
        return seq;
    }

    /** How long before the answer the entry was published, ms on the node's clock. */
    public long age() {
        return age;
    }

    /** The entry's origin time, ms since the Unix epoch, 0 when it had none. */
    public long origin() {
        return origin;
    }

    /** The entry's value TLV: the index entry ({@link TlvIndex#start}, {@link TlvIndex#untrailedLength}). */
    public int value() {
        return value;
    }
}
