package io.spectrum.wire;

/**
 * The lenient SETTINGS (0x0B) pair walk of libtracer's config reader, as a re-pointable flyweight
 * over a decoded entry. Children are read two at a time as (NAME key, value):
 *
 * <ul>
 *   <li>an unknown key skips its pair;</li>
 *   <li>a non-NAME child in a key slot (or a key with no value after it) stops the walk;</li>
 *   <li>a value of the wrong type, or a VALUE whose width is not the requested one, is ignored
 *       (that occurrence only);</li>
 *   <li>a repeated key: the last well-formed occurrence wins.</li>
 * </ul>
 *
 * Strings are NAME, integers VALUE, namespaces nested SETTINGS. Allocation-free; keys are the
 * caller's pre-encoded UTF-8 constants.
 */
public final class SettingsReader {
    /** Width argument meaning "any width". */
    public static final int ANY_WIDTH = -1;

    private TlvIndex idx;
    private int entry = TlvIndex.NONE;

    /**
     * Points the reader at a SETTINGS entry. An empty opaque {@code 0B 00 00 00} reads as empty.
     *
     * @return OK, or SCHEMA_TYPE_MISMATCH when the entry is not SETTINGS or is a non-empty opaque
     */
    public int wrap(TlvIndex index, int settingsEntry) {
        idx = index;
        if (settingsEntry < 0 || settingsEntry >= index.count() || index.type(settingsEntry) != TlvType.SETTINGS
                || (!index.isContainer(settingsEntry) && index.bodyLength(settingsEntry) != 0)) {
            entry = TlvIndex.NONE;
            return WireError.SCHEMA_TYPE_MISMATCH;
        }
        entry = settingsEntry;
        return WireError.OK;
    }

    /** The index the reader was last wrapped over. */
    public TlvIndex index() {
        return idx;
    }

    /** The wrapped SETTINGS entry, or {@link TlvIndex#NONE} after a refused {@link #wrap}. */
    public int entry() {
        return entry;
    }

    /** First key entry of the walk, or NONE. */
    public int firstKey() {
        if (entry == TlvIndex.NONE) {
            return TlvIndex.NONE;
        }
        return keyAt(idx.firstChild(entry));
    }

    /** The key after {@code key}'s pair, or NONE when the walk ends or stops. */
    public int nextKey(int key) {
        int v = idx.nextSibling(key);
        return v == TlvIndex.NONE ? TlvIndex.NONE : keyAt(idx.nextSibling(v));
    }

    private int keyAt(int c) {
        if (c == TlvIndex.NONE || idx.type(c) != TlvType.NAME || idx.nextSibling(c) == TlvIndex.NONE) {
            return TlvIndex.NONE;
        }
        return c;
    }

    /** The value entry of a key entry returned by {@link #firstKey()} / {@link #nextKey(int)}. */
    public int valueOf(int key) {
        return idx.nextSibling(key);
    }

    /**
     * The value entry that wins for {@code key}: the last occurrence whose value has
     * {@code wantedType} (and, for VALUE, exactly {@code width} bytes unless {@link #ANY_WIDTH}).
     *
     * @return the entry, or NONE when no well-formed occurrence exists
     */
    public int find(byte[] key, int wantedType, int width) {
        int found = TlvIndex.NONE;
        for (int k = firstKey(); k != TlvIndex.NONE; k = nextKey(k)) {
            if (!idx.payloadEquals(k, key)) {
                continue;
            }
            final int v = idx.nextSibling(k);
            if (idx.type(v) != wantedType) {
                continue;
            }
            if (wantedType == TlvType.VALUE && width != ANY_WIDTH && idx.bodyLength(v) != width) {
                continue;
            }
            if (wantedType == TlvType.SETTINGS && !idx.isContainer(v) && idx.bodyLength(v) != 0) {
                continue;
            }
            found = v;
        }
        return found;
    }

    /** The winning VALUE entry of exactly {@code width} bytes, or NONE. */
    public int findValue(byte[] key, int width) {
        return find(key, TlvType.VALUE, width);
    }

    /** True when {@code key} has a well-formed occurrence ({@link #find}). */
    public boolean has(byte[] key, int wantedType, int width) {
        return find(key, wantedType, width) != TlvIndex.NONE;
    }

    /** The winning 1-byte VALUE of {@code key} (0..255), or {@code absent} when there is none. */
    public int u8(byte[] key, int absent) {
        final int v = findValue(key, 1);
        return v == TlvIndex.NONE ? absent : (int) idx.valueAsLong(v);
    }

    /**
     * The winning 2-byte VALUE of {@code key} (0..65535, LE), or {@code absent} when there is none.
     */
    public int u16(byte[] key, int absent) {
        final int v = findValue(key, 2);
        return v == TlvIndex.NONE ? absent : (int) idx.valueAsLong(v);
    }

    /**
     * The winning 4-byte VALUE of {@code key} (unsigned, LE), or {@code absent} when there is none.
     */
    public long u32(byte[] key, long absent) {
        final int v = findValue(key, 4);
        return v == TlvIndex.NONE ? absent : idx.valueAsLong(v);
    }

    /**
     * The winning 8-byte VALUE of {@code key} (its bit pattern, LE), or {@code absent} when there
     * is none.
     */
    public long u64(byte[] key, long absent) {
        final int v = findValue(key, 8);
        return v == TlvIndex.NONE ? absent : idx.valueAsLong(v);
    }

    /** The winning NAME value entry (a string setting), or NONE. */
    public int name(byte[] key) {
        return find(key, TlvType.NAME, ANY_WIDTH);
    }

    /** The winning nested SETTINGS entry (a namespace), or NONE; wrap another reader over it. */
    public int namespace(byte[] key) {
        return find(key, TlvType.SETTINGS, ANY_WIDTH);
    }

    /** Points {@code child} at the namespace {@code key}; returns OK or SCHEMA_NOT_FOUND. */
    public int enter(byte[] key, SettingsReader child) {
        final int ns = namespace(key);
        if (ns == TlvIndex.NONE) {
            return WireError.SCHEMA_NOT_FOUND;
        }
        return child.wrap(idx, ns);
    }

    // ---- the same lookups for a key of Names (a fixed spelling, read in place)

    /** {@link #find(byte[], int, int)} for a fixed {@link Names} spelling, read in place. */
    public int find(Spelling key, int wantedType, int width) {
        return find(key.bytes, wantedType, width);
    }

    /** {@link #findValue(byte[], int)} for a fixed {@link Names} spelling. */
    public int findValue(Spelling key, int width) {
        return findValue(key.bytes, width);
    }

    /** {@link #has(byte[], int, int)} for a fixed {@link Names} spelling. */
    public boolean has(Spelling key, int wantedType, int width) {
        return has(key.bytes, wantedType, width);
    }

    /** {@link #u8(byte[], int)} for a fixed {@link Names} spelling. */
    public int u8(Spelling key, int absent) {
        return u8(key.bytes, absent);
    }

    /** {@link #u16(byte[], int)} for a fixed {@link Names} spelling. */
    public int u16(Spelling key, int absent) {
        return u16(key.bytes, absent);
    }

    /** {@link #u32(byte[], long)} for a fixed {@link Names} spelling. */
    public long u32(Spelling key, long absent) {
        return u32(key.bytes, absent);
    }

    /** {@link #u64(byte[], long)} for a fixed {@link Names} spelling. */
    public long u64(Spelling key, long absent) {
        return u64(key.bytes, absent);
    }

    /** {@link #name(byte[])} for a fixed {@link Names} spelling. */
    public int name(Spelling key) {
        return name(key.bytes);
    }

    /** {@link #namespace(byte[])} for a fixed {@link Names} spelling. */
    public int namespace(Spelling key) {
        return namespace(key.bytes);
    }

    /**
     * {@link #enter(byte[], SettingsReader)} for a fixed {@link Names} spelling: OK or
     * SCHEMA_NOT_FOUND (or the child's wrap code).
     */
    public int enter(Spelling key, SettingsReader child) {
        return enter(key.bytes, child);
    }
}
