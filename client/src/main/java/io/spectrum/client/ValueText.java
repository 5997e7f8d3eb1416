package io.spectrum.client;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * A value TLV as people and scripts read it, rendered by {@link ValueFormat} (the one place that
 * turns a value and its vertex declaration into text and numbers: CLI, dashboard, MQTT bridge).
 *
 * @param text  what a person reads: {@code 23.28 °C}, {@code kitchen}, {@code (cleared)}, or the
 *              type name and hex of anything else
 * @param value the value in its unit (raw × scale + offset) when it is a number, else null
 * @param raw   the raw integer of a VALUE (unsigned when the declaration says so), else null
 * @param unit  the unit as people write it ({@code °C}, {@code %}); "" without one
 * @param ucum  the declared UCUM unit text ({@code Cel}), or null
 */
public record ValueText(String text, BigDecimal value, BigInteger raw, String unit, String ucum) {
    /** No value: empty text, no number. */
    public static final ValueText NONE = new ValueText("", null, null, "", null);

    /** A value TLV without a declaration (see {@link ValueFormat#render}). */
    public static ValueText of(byte[] b, int off, int len) {
        return ValueFormat.render(b, off, len, null);
    }

    /** Whether {@link #value} holds a number (drives a chart). */
    public boolean numeric() {
        return value != null;
    }

    /** The value in its unit as a double, 0 when not numeric. */
    public double number() {
        return value == null ? 0 : value.doubleValue();
    }
}
