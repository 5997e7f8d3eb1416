package io.spectrum.client;

import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.Utf8;
import io.spectrum.wire.WireError;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * Values through their vertex declaration ({@link VertexSchema}), both ways: {@link #render} turns
 * a value TLV into {@link ValueText} ({@code 2328} on an i16 {@code Cel} ×0.01 vertex reads
 * {@code 23.28 °C}); {@link #parse} turns what a person typed into the TLV the vertex holds, or a
 * one-line reason it does not fit. Without a declaration (an undeclared vertex, a plain v1 peer) a
 * VALUE of 1, 2, 4 or 8 bytes reads as a signed little-endian integer, as it always did; with one,
 * unsigned is unsigned (a u8 255 is 255).
 *
 * <p>Decimal arithmetic: scale and offset are decimal text on the wire, so {@code raw × scale +
 * offset} is computed exactly and shown with as many decimals as the scale and offset have
 * ({@code 0.01} → two: {@code 23.20 °C}).
 */
public final class ValueFormat {
    private static final BigDecimal WHOLE_STEP_SLACK = new BigDecimal("1e-9");

    private ValueFormat() {
    }

    /** A value TLV at {@code b[off, off+len)} rendered by {@code schema} (null: raw rendering). */
    public static ValueText render(byte[] b, int off, int len, VertexSchema schema) {
        if (b == null || len <= 0) {
            return ValueText.NONE;
        }
        TlvIndex x = new TlvIndex(Math.max(256, len / 4 + 1), 16); // a TLV is 4 bytes at least: room for all
        if (new FrameDecoder().decode(b, off, len, x) != WireError.OK) {
            return plain(hex(b, off, Math.min(len, 16)));
        }
        final int type = x.type(0);
        final int body = x.bodyOffset(0);
        final int n = x.bodyLength(0);
        if (type == TlvType.VALUE && !x.isContainer(0)) {
            if (schema != null && schema.type() == TlvType.VALUE && n == schema.width()) {
                return declared(schema, schema.rawValue(b, body));
            }
            if (n == 1 || n == 2 || n == 4 || n == 8) {
                int shift = 64 - 8 * n;
                long v = (x.valueAsLong(0) << shift) >> shift; // signed without a declaration, as before
                return new ValueText(Long.toString(v), BigDecimal.valueOf(v), BigInteger.valueOf(v), "", null);
            }
        }
        if (type == TlvType.NAME && !x.isContainer(0)) {
            return plain(Utf8.toString(b, body, n));
        }
        if (type == TlvType.STATUS && n == 0) {
            return plain("(cleared)");
        }
        if (type == TlvType.SETTINGS && x.isContainer(0)) { // a bus message with attachments: its payload and references
            String message = io.spectrum.bus.protocol.MessageValue.render(b, off, len);
            if (message != null) {
                return plain(message);
            }
        }
        return plain(TlvType.name(type) + " " + hex(b, body, Math.min(n, 16)) + (n > 16 ? "…" : ""));
    }

    /** A whole value TLV rendered by {@code schema}; NONE for null. */
    public static ValueText render(byte[] tlv, VertexSchema schema) {
        return tlv == null ? ValueText.NONE : render(tlv, 0, tlv.length, schema);
    }

    private static ValueText plain(String text) {
        return new ValueText(text, null, null, "", null);
    }

    private static ValueText declared(VertexSchema s, long rawBits) {
        BigInteger raw = s.signed() ? BigInteger.valueOf(rawBits) : new BigInteger(Long.toUnsignedString(rawBits));
        BigDecimal value = inUnit(s, raw);
        String unit = s.unitSymbol();
        return new ValueText(value.toPlainString() + (unit.isEmpty() ? "" : " " + unit), value, raw, unit, s.unit());
    }

    /** {@code raw × scale + offset}, exact, with the declaration's decimals. */
    static BigDecimal inUnit(VertexSchema s, BigInteger raw) {
        BigDecimal v = new BigDecimal(raw).multiply(BigDecimal.valueOf(s.scale())).add(BigDecimal.valueOf(s.offset()));
        return v.setScale(decimals(s), RoundingMode.HALF_EVEN);
    }

    private static int decimals(VertexSchema s) {
        int scale = BigDecimal.valueOf(s.scale()).stripTrailingZeros().scale();
        int offset = s.offset() == 0.0 ? 0 : BigDecimal.valueOf(s.offset()).stripTrailingZeros().scale();
        return Math.max(0, Math.max(scale, offset));
    }

    /** What {@link #parse} made of a person's input: the TLV to send, or why it does not fit. */
    public record Parsed(byte[] tlv, String reason) {
        /** True when the input fitted and {@code tlv} holds the value to send; false with {@code reason} otherwise. */
        public boolean ok() {
            return tlv != null;
        }
    }

    /**
     * The TLV {@code schema}'s vertex holds for {@code input}: a number in the vertex's unit
     * (optionally followed by the unit, {@code 23.5 °C} or {@code 23.5Cel}) for a VALUE, the text
     * itself for a NAME. Refused with a one-line reason: not a number, out of the declared range
     * (or the width's), finer than the scale's steps, text over the declared size, or a type
     * without a text form.
     */
    public static Parsed parse(String input, VertexSchema schema) {
        if (schema.type() == TlvType.NAME) {
            long bytes = utf8Length(input); // counted, not encoded: over-long text is refused before it is copied
            if (bytes > schema.maxSize()) {
                return refuse(shown(input) + " is " + bytes + " bytes; the vertex holds text of at most "
                        + schema.maxSize() + " bytes");
            }
            byte[] utf8 = input.getBytes(StandardCharsets.UTF_8);
            return new Parsed(Requests.build(w -> w.leaf(TlvType.NAME, utf8)), null);
        }
        if (schema.type() != TlvType.VALUE) {
            return refuse("the vertex holds a " + TlvType.name(schema.type())
                    + ", which has no text form; give a whole TLV with --hex");
        }
        int bound = maxTextLength(schema);
        if (input.length() > bound) { // before any matching or arithmetic: a 20 MB "number" costs nothing
            return refuse(shown(input) + " is " + input.length() + " characters; a value of this vertex is written in at most "
                    + bound + " (it holds " + holds(schema) + ")");
        }
        String t = input.trim();
        BigDecimal number = number(t, schema);
        if (number == null) {
            return refuse(shown(input) + " is not a number; the vertex holds " + holds(schema));
        }
        if (number.precision() - number.scale() > maxTextLength(schema)) {
            return refuse(t + " is out of range; the vertex holds " + holds(schema)); // 1e9999: no 10,000-digit division
        }
        BigDecimal q = number.subtract(BigDecimal.valueOf(schema.offset()))
                .divide(BigDecimal.valueOf(schema.scale()), MathContext.DECIMAL128);
        BigDecimal whole = q.setScale(0, RoundingMode.HALF_EVEN);
        if (q.subtract(whole).abs().compareTo(WHOLE_STEP_SLACK) > 0) {
            boolean wholeSteps = schema.scale() == 1.0 && schema.offset() == 0.0;
            return refuse(t + (wholeSteps ? " is not a whole number; the vertex holds "
                    : " is finer than the vertex's steps; it holds ") + holds(schema));
        }
        BigInteger raw = whole.toBigIntegerExact();
        if (raw.compareTo(min(schema)) < 0 || raw.compareTo(max(schema)) > 0) {
            return refuse(t + " is out of range; the vertex holds " + holds(schema));
        }
        long bits = raw.longValue();
        return new Parsed(Requests.build(w -> w.value(bits, schema.width())), null);
    }

    /**
     * The longest text {@link #parse} reads for a vertex, checked before anything else: for a VALUE
     * the widest number its width can hold, in its unit, with its decimals and the unit after it,
     * plus {@link #NUMBER_SLACK} characters for a sign, spaces, trailing zeros or an exponent; for a
     * NAME its declared size (a character is at least one byte); otherwise 0 (no text form).
     */
    public static int maxTextLength(VertexSchema s) {
        if (s.type() == TlvType.NAME) {
            return s.maxSize();
        }
        if (s.type() != TlvType.VALUE) {
            return 0;
        }
        BigInteger lo = s.signed() ? BigInteger.ONE.shiftLeft(8 * s.width() - 1).negate() : BigInteger.ZERO;
        BigInteger hi = s.signed() ? BigInteger.ONE.shiftLeft(8 * s.width() - 1).subtract(BigInteger.ONE)
                : BigInteger.ONE.shiftLeft(8 * s.width()).subtract(BigInteger.ONE);
        int widest = Math.max(inUnit(s, lo).toPlainString().length(), inUnit(s, hi).toPlainString().length());
        int unit = Math.max(s.unitSymbol().length(), s.unit() == null ? 0 : s.unit().length());
        return widest + unit + NUMBER_SLACK;
    }

    /** Characters a number may take beyond its widest plain form (see {@link #maxTextLength}). */
    public static final int NUMBER_SLACK = 24;

    private static long utf8Length(String s) {
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n++;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }

    /** An input as a refusal quotes it: in quotes, at most 40 characters of it. */
    static String shown(String input) {
        return "'" + (input.length() <= 40 ? input : input.substring(0, 40) + "…") + "'";
    }

    /** The smallest value the vertex takes, in its unit (its declared minimum, else its width's). */
    public static BigDecimal lowest(VertexSchema s) {
        return inUnit(s, min(s));
    }

    /** The largest value the vertex takes, in its unit (its declared maximum, else its width's). */
    public static BigDecimal highest(VertexSchema s) {
        return inUnit(s, max(s));
    }

    /** The step between two values of the vertex, in its unit (its scale): {@code 0.01}, {@code 1}. */
    public static BigDecimal step(VertexSchema s) {
        return BigDecimal.valueOf(s.scale()).stripTrailingZeros();
    }

    /** "a number from 0 to 1", "a number from -327.68 to 327.67 °C in steps of 0.01". */
    public static String holds(VertexSchema s) {
        String unit = s.unitSymbol().isEmpty() ? "" : " " + s.unitSymbol();
        BigDecimal step = step(s);
        return "a number from " + inUnit(s, min(s)).toPlainString() + " to " + inUnit(s, max(s)).toPlainString() + unit
                + (step.compareTo(BigDecimal.ONE) == 0 ? "" : " in steps of " + step.toPlainString());
    }

    private static BigDecimal number(String t, VertexSchema s) {
        String u = s.unitSymbol();
        if (!u.isEmpty() && t.endsWith(u)) {
            t = t.substring(0, t.length() - u.length()).trim();
        } else if (s.unit() != null && t.endsWith(s.unit())) {
            t = t.substring(0, t.length() - s.unit().length()).trim();
        }
        if (!t.matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d{1,4})?")) {
            return null;
        }
        return new BigDecimal(t);
    }

    /** The smallest raw integer the vertex takes: its declared minimum, else its width's. */
    static BigInteger min(VertexSchema s) {
        if (s.ranged()) {
            return s.signed() ? BigInteger.valueOf(s.min()) : new BigInteger(Long.toUnsignedString(s.min()));
        }
        return s.signed() ? BigInteger.ONE.shiftLeft(8 * s.width() - 1).negate() : BigInteger.ZERO;
    }

    /** The largest raw integer the vertex takes: its declared maximum, else its width's. */
    static BigInteger max(VertexSchema s) {
        if (s.ranged()) {
            return s.signed() ? BigInteger.valueOf(s.max()) : new BigInteger(Long.toUnsignedString(s.max()));
        }
        return s.signed() ? BigInteger.ONE.shiftLeft(8 * s.width() - 1).subtract(BigInteger.ONE)
                : BigInteger.ONE.shiftLeft(8 * s.width()).subtract(BigInteger.ONE);
    }

    private static Parsed refuse(String reason) {
        return new Parsed(null, reason);
    }

    private static String hex(byte[] b, int off, int len) {
        return HexFormat.of().formatHex(b, off, off + len);
    }
}
