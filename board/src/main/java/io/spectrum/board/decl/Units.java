package io.spectrum.board.decl;

import io.spectrum.node.api.VertexSchema;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The UCUM units a board file's {@code unit:} may name (docs/board.md, "Units"). A host shows the
 * declared text as people write it ({@link VertexSchema#unitSymbol}: {@code Cel} is °C) and hands it
 * to Home Assistant, so a spelling no reader knows ({@code celsius}) is refused when the file is read,
 * naming the accepted spellings closest to it. {@code C} and {@code F} (coulomb, farad in UCUM) are
 * left out on purpose: on a board they are nearly always meant as °C and °F.
 */
final class Units {
    /** Every accepted spelling, in the order docs/board.md lists them. */
    static final List<String> KNOWN = List.of(
            "Cel", "K", "[degF]",
            "%", "[ppm]", "[ppb]", "1",
            "V", "mV", "uV", "kV", "A", "mA", "uA", "W", "mW", "kW", "VA", "J", "kJ", "Wh", "kWh",
            "Ohm", "kOhm", "MOhm", "uF", "nF", "pF",
            "Hz", "kHz", "MHz", "/s", "/min", "/h",
            "Pa", "hPa", "kPa", "bar", "mbar", "[psi]", "mm[Hg]",
            "m", "cm", "mm", "um", "km",
            "g", "mg", "kg",
            "s", "ms", "us", "ns", "min", "h", "d",
            "bit", "By", "kBy", "MBy", "GBy", "KiBy", "MiBy", "GiBy", "bit/s", "kbit/s", "Mbit/s", "By/s", "kBy/s",
            "deg", "rad",
            "lx", "cd", "lm",
            "L", "mL", "m3", "L/min", "L/h", "m3/h",
            "m/s", "km/h",
            "ug/m3", "mg/m3", "g/m3",
            "dB");

    /** Common spellings that are not UCUM (lower case) and the unit they mean. */
    private static final Map<String, String> MEANT = Map.ofEntries(
            Map.entry("celsius", "Cel"), Map.entry("°c", "Cel"), Map.entry("℃", "Cel"), Map.entry("degc", "Cel"),
            Map.entry("deg c", "Cel"), Map.entry("c", "Cel"), Map.entry("centigrade", "Cel"),
            Map.entry("fahrenheit", "[degF]"), Map.entry("°f", "[degF]"), Map.entry("degf", "[degF]"),
            Map.entry("f", "[degF]"), Map.entry("kelvin", "K"),
            Map.entry("percent", "%"), Map.entry("pct", "%"), Map.entry("ppm", "[ppm]"), Map.entry("ppb", "[ppb]"),
            Map.entry("volt", "V"), Map.entry("volts", "V"), Map.entry("millivolt", "mV"), Map.entry("millivolts", "mV"),
            Map.entry("µv", "uV"), Map.entry("amp", "A"), Map.entry("amps", "A"), Map.entry("ampere", "A"),
            Map.entry("µa", "uA"), Map.entry("watt", "W"), Map.entry("watts", "W"),
            Map.entry("ohm", "Ohm"), Map.entry("ohms", "Ohm"), Map.entry("ω", "Ohm"), Map.entry("kω", "kOhm"),
            Map.entry("µf", "uF"), Map.entry("hertz", "Hz"), Map.entry("rpm", "/min"),
            Map.entry("psi", "[psi]"), Map.entry("mmhg", "mm[Hg]"), Map.entry("µm", "um"),
            Map.entry("sec", "s"), Map.entry("secs", "s"), Map.entry("second", "s"), Map.entry("seconds", "s"),
            Map.entry("msec", "ms"), Map.entry("µs", "us"), Map.entry("minute", "min"), Map.entry("minutes", "min"),
            Map.entry("hr", "h"), Map.entry("hour", "h"), Map.entry("hours", "h"), Map.entry("day", "d"),
            Map.entry("days", "d"),
            Map.entry("b", "By"), Map.entry("byte", "By"), Map.entry("bytes", "By"), Map.entry("kb", "kBy"),
            Map.entry("kib", "KiBy"), Map.entry("mb", "MBy"), Map.entry("mib", "MiBy"), Map.entry("gb", "GBy"),
            Map.entry("gib", "GiBy"), Map.entry("bps", "bit/s"), Map.entry("kbps", "kbit/s"), Map.entry("mbps", "Mbit/s"),
            Map.entry("°", "deg"), Map.entry("degree", "deg"), Map.entry("degrees", "deg"),
            Map.entry("lux", "lx"), Map.entry("l", "L"), Map.entry("liter", "L"), Map.entry("litre", "L"),
            Map.entry("ml", "mL"), Map.entry("m³", "m3"), Map.entry("l/m", "L/min"), Map.entry("m³/h", "m3/h"),
            Map.entry("µg/m3", "ug/m3"), Map.entry("µg/m³", "ug/m3"), Map.entry("mg/m³", "mg/m3"),
            Map.entry("kmh", "km/h"), Map.entry("kph", "km/h"), Map.entry("db", "dB"));

    private Units() {
    }

    /** Null when {@code unit} is an accepted spelling, otherwise what is wrong and the closest ones. */
    static String problem(String unit) {
        if (KNOWN.contains(unit)) {
            return null;
        }
        if (unit.isBlank()) {
            return "is empty (leave unit: out for a vertex without one)";
        }
        List<String> near = closest(unit);
        return "'" + unit + "' is not a UCUM unit the board knows; "
                + (near.isEmpty() ? "the known ones are listed in docs/board.md (Units)" : "closest: " + describe(near));
    }

    /** At most three accepted spellings nearest to {@code unit}, best first. */
    static List<String> closest(String unit) {
        String u = unit.trim().toLowerCase(Locale.ROOT);
        List<String> out = new ArrayList<>();
        String meant = MEANT.get(u);
        if (meant != null) {
            out.add(meant);
        }
        for (String k : KNOWN) {
            if (k.toLowerCase(Locale.ROOT).equals(u) && !out.contains(k)) {
                out.add(k);
            }
        }
        int limit = Math.max(1, u.length() / 3);
        for (int d = 1; d <= limit && out.size() < 3; d++) {
            for (String k : KNOWN) {
                if (out.size() < 3 && !out.contains(k) && Spec.distance(u, k.toLowerCase(Locale.ROOT)) == d) {
                    out.add(k);
                }
            }
        }
        return out;
    }

    /** "Cel (°C), K": each spelling with how a host shows it when that differs. */
    private static String describe(List<String> units) {
        StringBuilder b = new StringBuilder();
        for (String k : units) {
            String shown = VertexSchema.value(1, false).unit(k).build().unitSymbol();
            b.append(b.length() == 0 ? "" : ", ").append(k).append(shown.equals(k) ? "" : " (" + shown + ")");
        }
        return b.toString();
    }
}
