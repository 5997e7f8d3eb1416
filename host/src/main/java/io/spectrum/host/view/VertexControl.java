package io.spectrum.host.view;

import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.AccessMask;
import io.spectrum.wire.TlvType;

import java.math.BigDecimal;

/**
 * How the dashboard offers a write to a vertex, derived from its declaration: a toggle for a value
 * declared 0..1 with no scale (the demo LED), a number input with the declared range and the scale's
 * step otherwise, a text input for a NAME. Only vertices whose declaration grants remote callers the
 * WRITE right get one.
 *
 * @param kind "toggle", "number" or "text"
 * @param min  the smallest value in the vertex's unit (number and toggle)
 * @param max  the largest value in the vertex's unit
 * @param step the scale's step in the unit (1 for whole numbers)
 * @param unit the unit as people write it, "" without one
 */
public record VertexControl(String kind, double min, double max, double step, String unit) {

    /** The control {@code schema} allows, or null when it is not writable (or there is no declaration). */
    public static VertexControl of(VertexSchema schema) {
        if (schema == null || !schema.allows(AccessMask.WRITE)) {
            return null;
        }
        if (schema.type() == TlvType.NAME) {
            return new VertexControl("text", 0, schema.maxSize(), 1, "");
        }
        if (schema.type() != TlvType.VALUE) {
            return null; // no text form: writes of such vertices need --hex
        }
        double lo = schema.toUnit(minRaw(schema));
        double hi = schema.toUnit(maxRaw(schema));
        double step = BigDecimal.valueOf(schema.scale()).abs().stripTrailingZeros().doubleValue();
        boolean toggle = schema.ranged() && schema.scale() == 1.0 && schema.offset() == 0.0 && lo == 0 && hi == 1;
        return new VertexControl(toggle ? "toggle" : "number", Math.min(lo, hi), Math.max(lo, hi), step, schema.unitSymbol());
    }

    private static long minRaw(VertexSchema s) {
        if (s.ranged()) {
            return s.min();
        }
        return s.signed() ? -(1L << Math.min(63, 8 * s.width() - 1)) : 0;
    }

    private static long maxRaw(VertexSchema s) {
        if (s.ranged()) {
            return s.max();
        }
        if (s.width() >= 8) {
            return Long.MAX_VALUE; // shown as a bound only; the write is checked exactly by ValueFormat.parse
        }
        return s.signed() ? (1L << (8 * s.width() - 1)) - 1 : (1L << (8 * s.width())) - 1;
    }
}
