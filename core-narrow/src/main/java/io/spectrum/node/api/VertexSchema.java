package io.spectrum.node.api;

import io.spectrum.wire.AccessMask;
import io.spectrum.wire.Bytes;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.Names;
import io.spectrum.wire.SettingsReader;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.Utf8;
import io.spectrum.wire.WireError;

/**
 * What a vertex holds and who may change it: its TLV type, the width and signedness of a VALUE (or
 * the largest payload of any other type), an optional range, the unit (UCUM text such as
 * {@code Cel}, {@code %}, {@code V}), scale and offset ({@code raw × scale + offset} is the value in
 * its unit), a description, and the rights remote callers have ({@link AccessMask} READ, WRITE,
 * SUBSCRIBE). The node's owner declares it ({@link Node#declare}); the node enforces it on every
 * write, local or remote, and publishes it as the vertex's read-only {@code settings.app} keys
 * (docs/extensions.md), which is also how a client learns it ({@link #fromSettings}).
 *
 * <p>Immutable. Built once at configuration time ({@link #value}, {@link #name}, {@link #of}), where
 * a bad field is an {@link IllegalArgumentException} naming it; {@link #check} and
 * {@link #copySettings} are allocation-free and return WireError codes.
 */
public final class VertexSchema {
    /** The largest payload of a declared non-VALUE vertex unless the builder says otherwise. */
    public static final int DEFAULT_MAX_SIZE = 64;

    private final int type;
    private final int width;
    private final boolean signed;
    private final boolean ranged;
    private final long min;
    private final long max;
    private final int maxSize;
    private final String unit;
    private final double scale;
    private final double offset;
    private final String description;
    private final int rights;
    private final byte[] settings;
    /** Per key of {@link #settings}: where its NAME body is and where its value TLV is. */
    private final int[] keyAt;
    private final int[] keyLen;
    private final int[] valueAt;
    private final int[] valueLen;

    private VertexSchema(Builder b) {
        this.type = b.type;
        this.width = b.width;
        this.signed = b.signed;
        this.ranged = b.ranged;
        this.min = b.min;
        this.max = b.max;
        this.maxSize = b.type == TlvType.VALUE ? b.width : b.maxSize;
        this.unit = b.unit;
        this.scale = b.scale;
        this.offset = b.offset;
        this.description = b.description;
        this.rights = b.rights;
        this.settings = b.asRead != null ? b.asRead : render();
        TlvIndex idx = new TlvIndex();
        new FrameDecoder().decode(settings, 0, settings.length, idx);
        int n = 0;
        for (int c = idx.firstChild(0); c != TlvIndex.NONE; c = idx.nextSibling(idx.nextSibling(c))) {
            n++;
        }
        keyAt = new int[n];
        keyLen = new int[n];
        valueAt = new int[n];
        valueLen = new int[n];
        int i = 0;
        for (int c = idx.firstChild(0); c != TlvIndex.NONE; c = idx.nextSibling(idx.nextSibling(c)), i++) {
            int val = idx.nextSibling(c);
            keyAt[i] = idx.bodyOffset(c);
            keyLen[i] = idx.bodyLength(c);
            valueAt[i] = idx.start(val);
            valueLen[i] = idx.totalLength(val);
        }
    }

    /** A VALUE of exactly {@code width} bytes (1, 2, 4 or 8), signed or unsigned. */
    public static Builder value(int width, boolean signed) {
        if (width != 1 && width != 2 && width != 4 && width != 8) {
            throw new IllegalArgumentException("width must be 1, 2, 4 or 8 bytes, was " + width);
        }
        Builder b = new Builder(TlvType.VALUE);
        b.width = width;
        b.signed = signed;
        return b;
    }

    /** A NAME (UTF-8 text) of at most {@code maxBytes} bytes. */
    public static Builder name(int maxBytes) {
        return of(TlvType.NAME, maxBytes);
    }

    /** Any other TLV type with at most {@code maxSize} payload bytes (e.g. a POINT). */
    public static Builder of(int type, int maxSize) {
        if (type <= 0 || type > 0xFF || "UNKNOWN".equals(TlvType.name(type))) {
            throw new IllegalArgumentException("type must be a libtracer TLV type, was 0x" + Integer.toHexString(type));
        }
        if (maxSize < 0 || maxSize > 0xFFFF) {
            throw new IllegalArgumentException("maxSize must be 0..65535 bytes, was " + maxSize);
        }
        Builder b = new Builder(type);
        b.maxSize = maxSize;
        return b;
    }

    /**
     * Whether a TLV fits this declaration: its type, the exact width of a VALUE and its range, the
     * size of anything else.
     *
     * @param tlvType    the written TLV's type
     * @param bodyLength its payload length
     * @return OK or SCHEMA_TYPE_MISMATCH
     */
    public int check(int tlvType, byte[] buf, int bodyOff, int bodyLength) {
        if (tlvType != type) {
            return WireError.SCHEMA_TYPE_MISMATCH;
        }
        if (type == TlvType.VALUE) {
            if (bodyLength != width) {
                return WireError.SCHEMA_TYPE_MISMATCH;
            }
            if (ranged) {
                long v = rawValue(buf, bodyOff);
                if (v < min || v > max) {
                    return WireError.SCHEMA_TYPE_MISMATCH;
                }
            }
            return WireError.OK;
        }
        return bodyLength <= maxSize ? WireError.OK : WireError.SCHEMA_TYPE_MISMATCH;
    }

    /**
     * A VALUE payload of this declaration's width as a long, sign-extended when signed (little-endian,
     * as every libtracer integer). An unsigned 8-byte value above {@code Long.MAX_VALUE}
     * comes back negative; read it with {@link Long#toUnsignedString(long)}.
     */
    public long rawValue(byte[] buf, int bodyOff) {
        long v = Bytes.uLe(buf, bodyOff, width);
        if (signed && width < 8) {
            int shift = 64 - 8 * width;
            v = (v << shift) >> shift;
        }
        return v;
    }

    /** {@code raw × scale + offset}: the value in its unit. */
    public double toUnit(long raw) {
        return raw * scale + offset;
    }

    /** The raw integer nearest to {@code value} in its unit. */
    public long fromUnit(double value) {
        return Math.round((value - offset) / scale);
    }

    /**
     * Copies the declaration's SETTINGS TLV ({@code SETTINGS{NAME type NAME "VALUE", ...}}) to
     * {@code dst}.
     *
     * @return its length, or the negated FLOW_BACKPRESSURE when it does not fit
     */
    public int copySettings(byte[] dst, int off, int capacity) {
        if (settings.length > capacity) {
            return -WireError.FLOW_BACKPRESSURE;
        }
        System.arraycopy(settings, 0, dst, off, settings.length);
        return settings.length;
    }

    /**
     * Copies the value TLV of one {@code settings.app} key (e.g. {@code unit} →
     * {@code NAME "Cel"}) to {@code dst}. The key is {@code name[off, off+len)}.
     *
     * @return its length, the negated SCHEMA_NOT_FOUND when this declaration has no such key, or the
     *     negated FLOW_BACKPRESSURE when it does not fit
     */
    public int copyKey(byte[] name, int off, int len, byte[] dst, int dstOff, int capacity) {
        for (int i = 0; i < keyAt.length; i++) {
            if (keyLen[i] == len && Bytes.equals(settings, keyAt[i], len, name, off, len)) {
                if (valueLen[i] > capacity) {
                    return -WireError.FLOW_BACKPRESSURE;
                }
                System.arraycopy(settings, valueAt[i], dst, dstOff, valueLen[i]);
                return valueLen[i];
            }
        }
        return -WireError.SCHEMA_NOT_FOUND;
    }

    /** Appends the declaration's SETTINGS TLV to {@code w} (its error reports an overflow). */
    public void writeSettings(TlvWriter w) {
        w.raw(settings, 0, settings.length);
    }

    /** The length of {@link #copySettings}'s TLV. */
    public int settingsLength() {
        return settings.length;
    }

    /**
     * Reads a declaration back from a SETTINGS entry in the form {@link #copySettings} writes (the
     * {@code settings.app} namespace of a vertex). Client side; allocates.
     *
     * @return the declaration, or null when the entry declares no type
     */
    public static VertexSchema fromSettings(TlvIndex idx, int settingsEntry) {
        SettingsReader r = new SettingsReader();
        if (r.wrap(idx, settingsEntry) != WireError.OK) {
            return null;
        }
        int t = r.name(Names.DECL_TYPE);
        if (t == TlvIndex.NONE) {
            return null;
        }
        int type = typeCode(Utf8.toString(idx.buffer(), idx.bodyOffset(t), idx.bodyLength(t)));
        if (type < 0) {
            return null;
        }
        try {
            Builder b;
            if (type == TlvType.VALUE) {
                b = value(r.u8(Names.DECL_WIDTH, 0), r.u8(Names.DECL_SIGNED, 0) != 0);
                int lo = r.find(Names.DECL_MIN, TlvType.VALUE, SettingsReader.ANY_WIDTH);
                int hi = r.find(Names.DECL_MAX, TlvType.VALUE, SettingsReader.ANY_WIDTH);
                if (lo != TlvIndex.NONE && hi != TlvIndex.NONE) {
                    b.range(b.decode(idx, lo), b.decode(idx, hi));
                }
            } else {
                b = of(type, (int) r.u32(Names.DECL_MAX_SIZE, DEFAULT_MAX_SIZE));
            }
            int u = r.name(Names.DECL_UNIT);
            if (u != TlvIndex.NONE) {
                b.unit(Utf8.toString(idx.buffer(), idx.bodyOffset(u), idx.bodyLength(u)));
            }
            b.scale(decimal(idx, r.name(Names.DECL_SCALE), 1.0));
            b.offset(decimal(idx, r.name(Names.DECL_OFFSET), 0.0));
            int d = r.name(Names.DECL_DESCRIPTION);
            if (d != TlvIndex.NONE) {
                b.description(Utf8.toString(idx.buffer(), idx.bodyOffset(d), idx.bodyLength(d)));
            }
            b.rights(r.u8(Names.DECL_RIGHTS, 0));
            b.asRead = asRead(idx, settingsEntry);
            return b.build();
        } catch (IllegalArgumentException e) {
            return null; // a declaration this reader cannot hold
        }
    }

    /**
     * The SETTINGS entry's bytes as its node sent them, kept as the declaration's {@code settings.app}
     * so that a copy answers exactly what its owner answers (a host's copy of a board's declaration,
     * docs/routing.md), whatever the owner's key order or spelling of a number; null (the declaration
     * is rendered from its fields) when the entry is not NAME/value pairs or is too large for one.
     */
    private static byte[] asRead(TlvIndex idx, int settingsEntry) {
        if (!idx.isContainer(settingsEntry) || idx.totalLength(settingsEntry) > 512) {
            return null;
        }
        for (int c = idx.firstChild(settingsEntry); c != TlvIndex.NONE; c = idx.nextSibling(idx.nextSibling(c))) {
            if (idx.type(c) != TlvType.NAME || idx.isContainer(c) || idx.nextSibling(c) == TlvIndex.NONE) {
                return null;
            }
        }
        byte[] raw = new byte[idx.totalLength(settingsEntry)];
        System.arraycopy(idx.buffer(), idx.start(settingsEntry), raw, 0, raw.length);
        return raw;
    }

    /** {@link #fromSettings} over a whole encoded SETTINGS TLV. */
    public static VertexSchema fromSettings(byte[] tlv, int off, int len) {
        TlvIndex idx = new TlvIndex();
        if (new FrameDecoder().decode(tlv, off, len, idx) != WireError.OK) {
            return null;
        }
        return fromSettings(idx, 0);
    }

    private static double decimal(TlvIndex idx, int entry, double absent) {
        if (entry == TlvIndex.NONE) {
            return absent;
        }
        try {
            return Double.parseDouble(Utf8.toString(idx.buffer(), idx.bodyOffset(entry), idx.bodyLength(entry)));
        } catch (NumberFormatException e) {
            return absent;
        }
    }

    private static int typeCode(String name) {
        for (int t = 1; t <= 0x80; t++) {
            if (TlvType.name(t).equals(name)) {
                return t;
            }
        }
        return -1;
    }

    private byte[] render() {
        byte[] out = new byte[512];
        TlvWriter w = new TlvWriter(4).wrap(out, 0, out.length);
        w.begin(TlvType.SETTINGS);
        w.leaf(TlvType.NAME, Names.DECL_TYPE).leaf(TlvType.NAME, Utf8.bytes(TlvType.name(type)));
        if (type == TlvType.VALUE) {
            w.leaf(TlvType.NAME, Names.DECL_WIDTH).value(width, 1);
            w.leaf(TlvType.NAME, Names.DECL_SIGNED).value(signed ? 1 : 0, 1);
            if (ranged) {
                w.leaf(TlvType.NAME, Names.DECL_MIN).value(min, width);
                w.leaf(TlvType.NAME, Names.DECL_MAX).value(max, width);
            }
        } else {
            w.leaf(TlvType.NAME, Names.DECL_MAX_SIZE).value(maxSize, 4);
        }
        if (unit != null) {
            w.leaf(TlvType.NAME, Names.DECL_UNIT).leaf(TlvType.NAME, Utf8.bytes(unit));
        }
        if (scale != 1.0) {
            w.leaf(TlvType.NAME, Names.DECL_SCALE).leaf(TlvType.NAME, Utf8.bytes(Double.toString(scale)));
        }
        if (offset != 0.0) {
            w.leaf(TlvType.NAME, Names.DECL_OFFSET).leaf(TlvType.NAME, Utf8.bytes(Double.toString(offset)));
        }
        w.leaf(TlvType.NAME, Names.DECL_RIGHTS).value(rights, 1);
        if (description != null) {
            w.leaf(TlvType.NAME, Names.DECL_DESCRIPTION).leaf(TlvType.NAME, Utf8.bytes(description));
        }
        w.end();
        if (w.error() != WireError.OK) {
            throw new IllegalArgumentException("description is too long for a declaration (" + description.length() + " chars)");
        }
        byte[] exact = new byte[w.length()];
        System.arraycopy(out, 0, exact, 0, exact.length);
        return exact;
    }

    /** The declared TLV type ({@link io.spectrum.wire.TlvType} code: VALUE, NAME, POINT, ...). */
    public int type() {
        return type;
    }

    /** Bytes of a VALUE; 0 for other types. */
    public int width() {
        return type == TlvType.VALUE ? width : 0;
    }

    /** True when a VALUE is two's complement; false for unsigned (and for other types). */
    public boolean signed() {
        return signed;
    }

    /**
     * True when {@link #min()} and {@link #max()} bound a VALUE; false when the width's whole range
     * is allowed.
     */
    public boolean ranged() {
        return ranged;
    }

    /** Inclusive lowest raw value of a ranged VALUE (meaningful when {@link #ranged()}). */
    public long min() {
        return min;
    }

    /** Inclusive highest raw value of a ranged VALUE (meaningful when {@link #ranged()}). */
    public long max() {
        return max;
    }

    /** The largest payload this declaration accepts. */
    public int maxSize() {
        return maxSize;
    }

    /** UCUM unit text, or null. */
    public String unit() {
        return unit;
    }

    /** The unit as people write it: {@code Cel} is °C, {@code [degF]} °F; others as declared; "" without one. */
    public String unitSymbol() {
        if (unit == null) {
            return "";
        }
        switch (unit) {
            case "Cel": return "°C";
            case "[degF]": return "°F";
            case "deg": return "°";
            case "[ppm]": return "ppm";
            default: return unit;
        }
    }

    /**
     * Multiplier from raw value to the value in its unit (raw × scale + offset); 1 when not
     * declared.
     */
    public double scale() {
        return scale;
    }

    /** Added after {@link #scale()} to get the value in its unit; 0 when not declared. */
    public double offset() {
        return offset;
    }

    /** Free text about the vertex, or null. */
    public String description() {
        return description;
    }

    /** The {@link AccessMask} rights of remote callers. */
    public int rights() {
        return rights;
    }

    /**
     * True when remote callers are granted every bit of {@code right} (an {@link AccessMask} mask).
     */
    public boolean allows(int right) {
        return (rights & right) == right;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(TlvType.name(type));
        if (type == TlvType.VALUE) {
            s.append(signed ? " i" : " u").append(width * 8);
            if (ranged) {
                s.append(' ').append(min).append("..").append(max);
            }
        } else {
            s.append(" <=").append(maxSize).append(" B");
        }
        if (unit != null) {
            s.append(' ').append(unit);
        }
        if (scale != 1.0 || offset != 0.0) {
            s.append(" x").append(scale);
            if (offset != 0.0) {
                s.append(offset > 0 ? "+" : "").append(offset);
            }
        }
        return s.append(' ').append(AccessMask.text(rights)).toString();
    }

    /** Configuration-time builder; {@link #build()} checks the fields together. */
    public static final class Builder {
        private final int type;
        private int width;
        private boolean signed;
        private boolean ranged;
        private long min;
        private long max;
        private int maxSize = DEFAULT_MAX_SIZE;
        private String unit;
        private double scale = 1.0;
        private double offset;
        private String description;
        private int rights = AccessMask.READ | AccessMask.SUBSCRIBE;
        /** The declaration's SETTINGS as read from its owner ({@link #fromSettings}), or null: rendered. */
        private byte[] asRead;

        private Builder(int type) {
            this.type = type;
        }

        /** Inclusive raw range of a VALUE. */
        public Builder range(long min, long max) {
            if (type != TlvType.VALUE) {
                throw new IllegalArgumentException("range applies to a VALUE only, not " + TlvType.name(type));
            }
            if (min > max) {
                throw new IllegalArgumentException("range must have min <= max, was " + min + ".." + max);
            }
            this.ranged = true;
            this.min = min;
            this.max = max;
            return this;
        }

        /**
         * The UCUM unit text ({@code Cel}, {@code %}, {@code V}), or null for none.
         *
         * @throws IllegalArgumentException when the text is empty or longer than 32 characters
         */
        public Builder unit(String ucum) {
            if (ucum != null && (ucum.isEmpty() || ucum.length() > 32)) {
                throw new IllegalArgumentException("unit must be 1..32 characters of UCUM text, was '" + ucum + "'");
            }
            this.unit = ucum;
            return this;
        }

        /**
         * Multiplier from raw value to the value in its unit.
         *
         * @throws IllegalArgumentException when {@code scale} is 0, infinite or NaN
         */
        public Builder scale(double scale) {
            if (!(scale != 0.0 && Double.isFinite(scale))) {
                throw new IllegalArgumentException("scale must be finite and not 0, was " + scale);
            }
            this.scale = scale;
            return this;
        }

        /**
         * Added after the scale to get the value in its unit.
         *
         * @throws IllegalArgumentException when {@code offset} is infinite or NaN
         */
        public Builder offset(double offset) {
            if (!Double.isFinite(offset)) {
                throw new IllegalArgumentException("offset must be finite, was " + offset);
            }
            this.offset = offset;
            return this;
        }

        /**
         * Free text about the vertex, or null for none (checked against the declaration's size in
         * {@link #build()}).
         */
        public Builder description(String text) {
            this.description = text;
            return this;
        }

        /** Remote callers' rights, a mask of {@link AccessMask} READ, WRITE and SUBSCRIBE. */
        public Builder rights(int mask) {
            if ((mask & ~AccessMask.VERTEX_RIGHTS) != 0) {
                throw new IllegalArgumentException("rights must be a mask of READ 1, WRITE 2, SUBSCRIBE 4, was 0x"
                        + Integer.toHexString(mask));
            }
            this.rights = mask;
            return this;
        }

        /** Remote callers may read and subscribe, not write (the default). */
        public Builder readOnly() {
            return rights(AccessMask.READ | AccessMask.SUBSCRIBE);
        }

        /** Remote callers may read, write and subscribe. */
        public Builder writable() {
            return rights(AccessMask.READ | AccessMask.WRITE | AccessMask.SUBSCRIBE);
        }

        private long decode(TlvIndex idx, int entry) {
            long v = idx.valueAsLong(entry);
            int w = idx.bodyLength(entry);
            if (signed && w < 8 && w > 0) {
                int shift = 64 - 8 * w;
                v = (v << shift) >> shift;
            }
            return v;
        }

        /**
         * The declaration, with its {@code settings.app} bytes rendered once.
         *
         * @throws IllegalArgumentException when the range does not fit the width and signedness, or
         *     the description does not fit a declaration
         */
        public VertexSchema build() {
            if (ranged && type == TlvType.VALUE && width < 8) {
                long lo = signed ? -(1L << (8 * width - 1)) : 0;
                long hi = signed ? (1L << (8 * width - 1)) - 1 : (1L << (8 * width)) - 1;
                if (min < lo || max > hi) {
                    throw new IllegalArgumentException("range " + min + ".." + max + " does not fit a "
                            + (signed ? "signed " : "unsigned ") + width + "-byte VALUE");
                }
            }
            return new VertexSchema(this);
        }
    }
}
