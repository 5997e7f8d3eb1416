package io.spectrum.wire;

/**
 * A read-only flyweight over a FIELD (0x10) selector: up to 8 levels, each a NAME followed by 0, 1
 * or 2 VALUEs:
 *
 * <pre>
 * NAME                                 :name      SCALAR
 * NAME, VALUE u8 mode                  :name[]    ELEMENT (no index) / :name[*] WILDCARD
 * NAME, VALUE u32 index, VALUE u8 mode :name[N]   ELEMENT with index
 * </pre>
 *
 * Spectrum's spelling of the RFC-0035 §6.1 generation (docs/extensions.md) is one more level right
 * after an indexed ELEMENT level: {@code NAME "spectrum.gen", VALUE u32 G, VALUE u8 ELEMENT}, so
 * {@code :subscribers[N]} + {@code :spectrum.gen[G]} reads as {@code :subscribers[N@G]}. This view
 * folds that level into the one before (it is not counted in {@link #levels()}). Every level keeps the
 * v1 shape, so libtracer's reader and dissector parse it; a plain v1 node answers the two-level
 * selector with {@code schema::not_found} (fields are addressed whole), so the guard is never
 * silently dropped. Write it with {@link #element}.
 *
 * <p>{@link #wrap} validates and returns PATH_INVALID for: an empty or opaque FIELD, a non-NAME
 * level head, an empty or over-long level name, more than 8 levels, a mode VALUE that is not one
 * byte of 0/1/2, an index VALUE wider than 4 bytes or above 65535, more than 2 VALUEs in a level, an
 * index with a mode other than ELEMENT, a generation level that does not follow an indexed ELEMENT
 * level or whose generation is not 4 bytes. Index widths 1..4 zero-extend.
 */
public final class FieldView {
    /** Most levels a selector may have (a generation level not counted). */
    public static final int MAX_LEVELS = 8;
    /** Largest element index a level may carry ({@code [N]}, N 0..65535). */
    public static final int MAX_INDEX = 65535;
    /** Longest level name, in bytes. */
    public static final int MAX_NAME_BYTES = 64;

    /** Mode 0: the level names a field whole ({@code :name}). */
    public static final int MODE_SCALAR = 0;
    /** Mode 1: the level selects elements ({@code :name[]}, or {@code :name[N]} with an index). */
    public static final int MODE_ELEMENT = 1;
    /** Mode 2: the level selects every element ({@code :name[*]}). */
    public static final int MODE_WILDCARD = 2;


    private final int[] nameEntry = new int[MAX_LEVELS];
    private final int[] mode = new int[MAX_LEVELS];
    private final int[] index = new int[MAX_LEVELS];
    private final long[] generation = new long[MAX_LEVELS];
    private TlvIndex idx;
    private int entry = TlvIndex.NONE;
    private int levels;

    /**
     * Points the view at a FIELD entry and validates it.
     *
     * @return OK, SCHEMA_TYPE_MISMATCH when the entry is not a FIELD, or PATH_INVALID
     */
    public int wrap(TlvIndex index, int e) {
        idx = index;
        entry = TlvIndex.NONE;
        levels = 0;
        if (e < 0 || e >= index.count() || index.type(e) != TlvType.FIELD) {
            return WireError.SCHEMA_TYPE_MISMATCH;
        }
        if (!index.isContainer(e)) {
            return WireError.PATH_INVALID;
        }
        int c = index.firstChild(e);
        if (c == TlvIndex.NONE) {
            return WireError.PATH_INVALID;
        }
        int n = 0;
        while (c != TlvIndex.NONE) {
            if (index.type(c) != TlvType.NAME || index.isContainer(c)) {
                return fail();
            }
            final int nameLen = index.bodyLength(c);
            if (nameLen < 1 || nameLen > MAX_NAME_BYTES) {
                return fail();
            }
            if (n == MAX_LEVELS) {
                return fail();
            }
            int v1 = TlvIndex.NONE;
            int v2 = TlvIndex.NONE;
            int values = 0;
            int v = index.nextSibling(c);
            while (v != TlvIndex.NONE && index.type(v) == TlvType.VALUE) {
                if (index.isContainer(v)) {
                    return fail();
                }
                values++;
                if (values == 1) {
                    v1 = v;
                } else if (values == 2) {
                    v2 = v;
                } else if (values > 3) {
                    return fail();
                }
                v = index.nextSibling(v);
            }
            int m = MODE_SCALAR;
            int ix = -1;
            long gen = -1;
            if (values == 1) {
                m = modeOf(v1);
            } else if (values == 2) {
                // a generation is a u32 (checked below); only an element index has the index limit
                ix = index.payloadEquals(c, Names.GENERATION) ? (index.bodyLength(v1) == 4 ? 0 : -1) : indexOf(v1);
                m = modeOf(v2);
                if (ix < 0 || m != MODE_ELEMENT) {
                    return fail();
                }
            } else if (values == 3) {
                return fail();
            }
            if (m < 0) {
                return fail();
            }
            if (index.payloadEquals(c, Names.GENERATION)) {
                // :spectrum.gen[G] right after an indexed element: that element's generation
                if (n == 0 || this.index[n - 1] < 0 || generation[n - 1] >= 0 || values != 2
                        || index.bodyLength(v1) != 4) {
                    return fail();
                }
                generation[n - 1] = index.valueAsLong(v1);
                c = v;
                continue;
            }
            nameEntry[n] = c;
            mode[n] = m;
            this.index[n] = ix;
            generation[n] = gen;
            n++;
            c = v;
        }
        levels = n;
        entry = e;
        return WireError.OK;
    }

    /**
     * Writes one element level into an open FIELD: {@code NAME name, [VALUE u32 index,] VALUE u8
     * ELEMENT}, then, when {@code generation >= 0} (with an index), the generation level
     * {@code NAME "spectrum.gen", VALUE u32 generation, VALUE u8 ELEMENT}. The one writer of the
     * spelling this view reads.
     */
    public static TlvWriter element(TlvWriter w, Spelling name, int index, long generation) {
        return element(w, name.bytes, index, generation);
    }

    /** As {@link #element(TlvWriter, Spelling, int, long)} for a name given as bytes. */
    public static TlvWriter element(TlvWriter w, byte[] name, int index, long generation) {
        w.leaf(TlvType.NAME, name);
        if (index >= 0) {
            w.value(index, 4);
        }
        w.value(MODE_ELEMENT, 1);
        if (index >= 0 && generation >= 0) {
            w.leaf(TlvType.NAME, Names.GENERATION).value(generation & 0xFFFFFFFFL, 4).value(MODE_ELEMENT, 1);
        }
        return w;
    }

    private int fail() {
        levels = 0;
        entry = TlvIndex.NONE;
        return WireError.PATH_INVALID;
    }

    private int modeOf(int v) {
        if (idx.bodyLength(v) != 1) {
            return -1;
        }
        final int m = idx.buffer()[idx.bodyOffset(v)] & 0xFF;
        return m <= MODE_WILDCARD ? m : -1;
    }

    private int indexOf(int v) {
        final int w = idx.bodyLength(v);
        if (w < 1 || w > 4) {
            return -1;
        }
        final long ix = idx.valueAsLong(v);
        return ix > MAX_INDEX ? -1 : (int) ix;
    }

    /** The index the view was last wrapped over. */
    public TlvIndex index() {
        return idx;
    }

    /** The wrapped FIELD's index entry, or {@link TlvIndex#NONE} after a refused {@link #wrap}. */
    public int entry() {
        return entry;
    }

    /**
     * Levels of the selector, 1..{@link #MAX_LEVELS}; a folded generation level is not counted; 0
     * after a refused wrap.
     */
    public int levels() {
        return levels;
    }

    /** The NAME entry heading level i. */
    public int nameEntry(int level) {
        return nameEntry[level];
    }

    /**
     * True when level {@code level}'s name is exactly {@code name} (e.g. {@link
     * Names#SUBSCRIBERS}).
     */
    public boolean nameEquals(int level, Spelling name) {
        return idx.payloadEquals(nameEntry[level], name);
    }

    /** True when level {@code level}'s name is exactly the bytes {@code name}. */
    public boolean nameEquals(int level, byte[] name) {
        return idx.payloadEquals(nameEntry[level], name);
    }

    /** The level's mode: {@link #MODE_SCALAR}, {@link #MODE_ELEMENT} or {@link #MODE_WILDCARD}. */
    public int mode(int level) {
        return mode[level];
    }

    /** True when the level carries an element index ({@code [N]}). */
    public boolean hasIndex(int level) {
        return index[level] >= 0;
    }

    /** The level's index (0..65535), or -1 when it has none. */
    public int index(int level) {
        return index[level];
    }

    /**
     * True when a {@code spectrum.gen} level was folded into this level ({@code [N@G]}).
     */
    public boolean hasGeneration(int level) {
        return generation[level] >= 0;
    }

    /** The level's generation (u32), or -1 when it has none. */
    public long generation(int level) {
        return generation[level];
    }

    /** True when the last level carries a generation (the element a write addresses). */
    public boolean hasGeneration() {
        return levels > 0 && generation[levels - 1] >= 0;
    }

    /** The last level's generation, or -1. */
    public long generation() {
        return levels > 0 ? generation[levels - 1] : -1;
    }

    /** True for the single-level selector {@code :subscribers…} (any mode). */
    public boolean isSubscribers() {
        return levels == 1 && nameEquals(0, Names.SUBSCRIBERS);
    }

    /** Text form for diagnostics, e.g. {@code :subscribers[3]} or {@code :settings.app}. Allocates. */
    public String toText() {
        return appendText(new StringBuilder()).toString();
    }

    /**
     * Appends the {@link #toText()} form to {@code sb} and returns it; allocates only as {@code sb}
     * grows.
     */
    public StringBuilder appendText(StringBuilder sb) {
        sb.append(':');
        for (int i = 0; i < levels; i++) {
            if (i > 0) {
                sb.append('.');
            }
            final int ne = nameEntry[i];
            Utf8.appendTo(sb, idx.buffer(), idx.bodyOffset(ne), idx.bodyLength(ne));
            if (mode[i] == MODE_WILDCARD) {
                sb.append("[*]");
            } else if (mode[i] == MODE_ELEMENT) {
                sb.append('[');
                if (index[i] >= 0) {
                    sb.append(index[i]);
                    if (generation[i] >= 0) {
                        sb.append('@').append(generation[i]);
                    }
                }
                sb.append(']');
            }
        }
        return sb;
    }
}
