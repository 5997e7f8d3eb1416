package io.spectrum.bus.protocol;

import io.spectrum.wire.BusError;
import io.spectrum.wire.Bytes;
import io.spectrum.wire.Opt;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.Utf8;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The named fields of one host-bus request, reply or delivery, and their libtracer v1 spelling:
 * a SETTINGS container of (NAME key, value) pairs, where a string is a NAME, a count
 * or id number a VALUE u64, a flag a VALUE u8 0/1, opaque bytes (a payload) a VALUE of any length,
 * and a list a POINT whose children are NAMEs (ids) or SETTINGS (records). docs/bus.md lists every
 * operation's fields.
 *
 * <p>Reading is strict: a key slot that is not a NAME, a key that repeats,
 * a value of the wrong type or width, and (through {@link #allowOnly}) a field the operation does
 * not define are all {@link BusError#INVALID_ENVELOPE}, never a silent default.
 */
public final class BusFields {
    private static final int SMALL_HEADER = 4;
    private static final int LARGE_HEADER = 6;

    /** A field as read from the wire or put by a caller: the TLV type and its leaf bytes or children. */
    private record Field(int type, byte[] body, List<Object> items) {
    }

    private final LinkedHashMap<String, Object> fields = new LinkedHashMap<>();

    /** An empty, mutable field set, for a caller to fill with {@code put…} and encode. */
    public static BusFields of() {
        return new BusFields();
    }

    /** A string field (a NAME, UTF-8); replaces an earlier field of the same key. */
    public BusFields put(String key, String value) {
        fields.put(key, new Field(TlvType.NAME, Utf8.bytes(value), null));
        return this;
    }

    /** A count or id field (a VALUE u64, little-endian); replaces an earlier field of the same key. */
    public BusFields put(String key, long value) {
        byte[] b = new byte[8];
        Bytes.put64(b, 0, value);
        fields.put(key, new Field(TlvType.VALUE, b, null));
        return this;
    }

    /** A flag field (a VALUE u8 0/1); replaces an earlier field of the same key. */
    public BusFields put(String key, boolean value) {
        fields.put(key, new Field(TlvType.VALUE, new byte[] {(byte) (value ? 1 : 0)}, null));
        return this;
    }

    /** Opaque bytes (a payload), kept as given (not copied). */
    public BusFields putBytes(String key, byte[] value) {
        fields.put(key, new Field(TlvType.VALUE, value, null));
        return this;
    }

    /** A list of strings (ids). */
    public BusFields putStrings(String key, List<String> values) {
        fields.put(key, new Field(TlvType.POINT, null, new ArrayList<>(values)));
        return this;
    }

    /** A list of records. */
    public BusFields putRecords(String key, List<BusFields> values) {
        fields.put(key, new Field(TlvType.POINT, null, new ArrayList<>(values)));
        return this;
    }

    /** One nested record. */
    public BusFields putRecord(String key, BusFields value) {
        fields.put(key, new Field(TlvType.SETTINGS, null, List.of(value)));
        return this;
    }

    /** True when the field is present (any type). */
    public boolean has(String key) {
        return fields.containsKey(key);
    }

    /** The keys present, in the order they were read or put; a read-only view. */
    public Set<String> keys() {
        return Collections.unmodifiableSet(fields.keySet());
    }

    /** Refuses any field outside {@code allowed} (an unknown field is an error, not ignored). */
    public BusFields allowOnly(String... allowed) throws BusException {
        List<String> ok = Arrays.asList(allowed);
        for (String k : fields.keySet()) {
            if (!ok.contains(k)) {
                throw new BusException(BusError.INVALID_ENVELOPE, "unknown field '" + k + "'");
            }
        }
        return this;
    }

    private Field field(String key, int type) throws BusException {
        Object o = fields.get(key);
        if (o == null) {
            throw new BusException(BusError.INVALID_ENVELOPE, "missing field '" + key + "'");
        }
        Field f = (Field) o;
        if (f.type != type) {
            throw new BusException(BusError.INVALID_ENVELOPE, "field '" + key + "' has the wrong type");
        }
        return f;
    }

    /** A string field; {@code INVALID_ENVELOPE} when it is missing, not a NAME or not valid UTF-8. */
    public String string(String key) throws BusException {
        Field f = field(key, TlvType.NAME);
        if (!Utf8.isValid(f.body, 0, f.body.length)) {
            throw new BusException(BusError.INVALID_ENVELOPE, "field '" + key + "' is not UTF-8");
        }
        return Utf8.toString(f.body, 0, f.body.length);
    }

    /** The string, or {@code absent} when the field is not there. */
    public String string(String key, String absent) throws BusException {
        return has(key) ? string(key) : absent;
    }

    /** A u64 field; {@code INVALID_ENVELOPE} when it is missing, not a VALUE or not 8 bytes wide. */
    public long u64(String key) throws BusException {
        Field f = field(key, TlvType.VALUE);
        if (f.body.length != 8) {
            throw new BusException(BusError.INVALID_ENVELOPE, "field '" + key + "' is not a u64");
        }
        return Bytes.i64(f.body, 0);
    }

    /** A u64 field, or {@code absent} when the key is missing; {@code INVALID_ENVELOPE} when present but malformed. */
    public long u64(String key, long absent) throws BusException {
        return has(key) ? u64(key) : absent;
    }

    /** A flag field; {@code INVALID_ENVELOPE} when it is missing or not a one-byte VALUE of 0 or 1. */
    public boolean bool(String key) throws BusException {
        Field f = field(key, TlvType.VALUE);
        if (f.body.length != 1 || (f.body[0] & 0xFE) != 0) {
            throw new BusException(BusError.INVALID_ENVELOPE, "field '" + key + "' is not a flag 0/1");
        }
        return f.body[0] == 1;
    }

    /** A flag field, or {@code absent} when the key is missing; {@code INVALID_ENVELOPE} when present but malformed. */
    public boolean bool(String key, boolean absent) throws BusException {
        return has(key) ? bool(key) : absent;
    }

    /**
     * An opaque bytes field (a VALUE of any length), not copied; {@code INVALID_ENVELOPE} when missing or not a
     * VALUE.
     */
    public byte[] bytes(String key) throws BusException {
        return field(key, TlvType.VALUE).body;
    }

    /** An opaque bytes field, or {@code absent} when the key is missing; {@code INVALID_ENVELOPE} when not a VALUE. */
    public byte[] bytes(String key, byte[] absent) throws BusException {
        return has(key) ? bytes(key) : absent;
    }

    /**
     * A list of strings (a POINT of NAMEs); {@code INVALID_ENVELOPE} when missing, not a POINT or holding a
     * non-string.
     */
    public List<String> strings(String key) throws BusException {
        Field f = field(key, TlvType.POINT);
        List<String> out = new ArrayList<>(f.items.size());
        for (Object o : f.items) {
            if (!(o instanceof String s)) {
                throw new BusException(BusError.INVALID_ENVELOPE, "field '" + key + "' is not a list of names");
            }
            out.add(s);
        }
        return out;
    }

    /**
     * A list of records (a POINT of SETTINGS); {@code INVALID_ENVELOPE} when missing, not a POINT or holding a
     * non-record.
     */
    public List<BusFields> records(String key) throws BusException {
        Field f = field(key, TlvType.POINT);
        List<BusFields> out = new ArrayList<>(f.items.size());
        for (Object o : f.items) {
            if (!(o instanceof BusFields r)) {
                throw new BusException(BusError.INVALID_ENVELOPE, "field '" + key + "' is not a list of records");
            }
            out.add(r);
        }
        return out;
    }

    /** One nested record (a SETTINGS); {@code INVALID_ENVELOPE} when missing or of another type. */
    public BusFields record(String key) throws BusException {
        return (BusFields) field(key, TlvType.SETTINGS).items.get(0);
    }

    /** The records, or an empty list when the field is not there. */
    public List<BusFields> recordsOrEmpty(String key) throws BusException {
        return has(key) ? records(key) : List.of();
    }

    // ---- encoding ----

    private static int header(int bodyLen) {
        return bodyLen > 0xFFFF ? LARGE_HEADER : SMALL_HEADER;
    }

    /** Bytes of this record as a SETTINGS TLV. */
    public int encodedSize() {
        int body = bodySize();
        return header(body) + body;
    }

    private int bodySize() {
        int n = 0;
        for (Map.Entry<String, Object> e : fields.entrySet()) {
            int k = Utf8.encodedLength(e.getKey());
            n += header(k) + k + itemSize(e.getValue());
        }
        return n;
    }

    private static int itemSize(Object o) {
        if (o instanceof String s) {
            int k = Utf8.encodedLength(s);
            return header(k) + k;
        }
        if (o instanceof BusFields r) {
            return r.encodedSize();
        }
        Field f = (Field) o;
        if (f.items == null) {
            return header(f.body.length) + f.body.length;
        }
        if (f.type == TlvType.SETTINGS) {
            return ((BusFields) f.items.get(0)).encodedSize();
        }
        int body = 0;
        for (Object i : f.items) {
            body += itemSize(i);
        }
        return header(body) + body;
    }

    /** Writes this record as a SETTINGS TLV. */
    public void writeTo(TlvWriter w) {
        w.begin(TlvType.SETTINGS, opt(bodySize()));
        for (Map.Entry<String, Object> e : fields.entrySet()) {
            byte[] k = Utf8.bytes(e.getKey());
            w.leaf(TlvType.NAME, opt(k.length), k, 0, k.length, 0L);
            writeItem(w, e.getValue());
        }
        w.end();
    }

    private static void writeItem(TlvWriter w, Object o) {
        if (o instanceof String s) {
            byte[] b = Utf8.bytes(s);
            w.leaf(TlvType.NAME, opt(b.length), b, 0, b.length, 0L);
        } else if (o instanceof BusFields r) {
            r.writeTo(w);
        } else {
            Field f = (Field) o;
            if (f.items == null) {
                w.leaf(f.type, opt(f.body.length), f.body, 0, f.body.length, 0L);
            } else if (f.type == TlvType.SETTINGS) {
                ((BusFields) f.items.get(0)).writeTo(w);
            } else {
                int body = 0;
                for (Object i : f.items) {
                    body += itemSize(i);
                }
                w.begin(TlvType.POINT, opt(body));
                for (Object i : f.items) {
                    writeItem(w, i);
                }
                w.end();
            }
        }
    }

    static int opt(int bodyLen) {
        return bodyLen > 0xFFFF ? Opt.LL : 0;
    }

    // ---- decoding ----

    /**
     * Reads the SETTINGS at entry {@code e} of a decoded frame, strictly.
     *
     * @throws BusException INVALID_ENVELOPE for a non-SETTINGS entry, a key slot that is not a
     *     NAME, a key without a value, a repeated key, or a list item that is neither NAME nor SETTINGS
     */
    public static BusFields read(TlvIndex idx, int e) throws BusException {
        if (e == TlvIndex.NONE || idx.type(e) != TlvType.SETTINGS) {
            throw new BusException(BusError.INVALID_ENVELOPE, "the body is not a SETTINGS record");
        }
        BusFields out = new BusFields();
        byte[] b = idx.buffer();
        for (int k = idx.firstChild(e); k != TlvIndex.NONE; k = idx.nextSibling(idx.nextSibling(k))) {
            int v = idx.nextSibling(k);
            if (idx.type(k) != TlvType.NAME || v == TlvIndex.NONE) {
                throw new BusException(BusError.INVALID_ENVELOPE, "a field is not a (NAME, value) pair");
            }
            if (!Utf8.isValid(b, idx.bodyOffset(k), idx.bodyLength(k))) {
                throw new BusException(BusError.INVALID_ENVELOPE, "a field name is not UTF-8");
            }
            String key = Utf8.toString(b, idx.bodyOffset(k), idx.bodyLength(k));
            if (out.fields.containsKey(key)) {
                throw new BusException(BusError.INVALID_ENVELOPE, "field '" + key + "' appears twice");
            }
            out.fields.put(key, readItem(idx, v, key));
        }
        return out;
    }

    private static Object readItem(TlvIndex idx, int v, String key) throws BusException {
        int type = idx.type(v);
        if (type == TlvType.SETTINGS) {
            return new Field(TlvType.SETTINGS, null, List.of(read(idx, v)));
        }
        if (type == TlvType.POINT) {
            List<Object> items = new ArrayList<>();
            byte[] b = idx.buffer();
            for (int c = idx.firstChild(v); c != TlvIndex.NONE; c = idx.nextSibling(c)) {
                if (idx.type(c) == TlvType.NAME) {
                    items.add(Utf8.toString(b, idx.bodyOffset(c), idx.bodyLength(c)));
                } else if (idx.type(c) == TlvType.SETTINGS) {
                    items.add(read(idx, c));
                } else {
                    throw new BusException(BusError.INVALID_ENVELOPE, "list '" + key + "' holds a "
                            + TlvType.name(idx.type(c)));
                }
            }
            return new Field(TlvType.POINT, null, items);
        }
        if (idx.isContainer(v)) {
            throw new BusException(BusError.INVALID_ENVELOPE, "field '" + key + "' is a " + TlvType.name(type));
        }
        byte[] body = Arrays.copyOfRange(idx.buffer(), idx.bodyOffset(v), idx.bodyOffset(v) + idx.bodyLength(v));
        return new Field(type, body, null);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("{");
        for (Map.Entry<String, Object> e : fields.entrySet()) {
            if (sb.length() > 1) {
                sb.append(", ");
            }
            sb.append(e.getKey()).append('=');
            Field f = (Field) e.getValue();
            if (f.type == TlvType.NAME) {
                sb.append('"').append(Utf8.toString(f.body, 0, f.body.length)).append('"');
            } else if (f.items != null) {
                sb.append(f.items);
            } else if (f.body.length == 8) {
                sb.append(Bytes.i64(f.body, 0));
            } else {
                sb.append(f.body.length).append(" B");
            }
        }
        return sb.append('}').toString();
    }
}
