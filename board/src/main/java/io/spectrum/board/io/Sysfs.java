package io.spectrum.board.io;

import io.spectrum.node.api.VertexSchema;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reading the kernel's small text files (/sys, /proc) and values people write in them. */
public final class Sysfs {
    private Sysfs() {
    }

    /** The whole file as UTF-8, trimmed; an {@link IOException} when it cannot be read. */
    public static String text(Path file) throws IOException {
        return new String(Files.readAllBytes(file), StandardCharsets.UTF_8).trim();
    }

    /** The file's first number: decimal, or hexadecimal with 0x. */
    public static long integer(Path file) throws IOException {
        String t = firstWord(text(file));
        try {
            return t.startsWith("0x") || t.startsWith("0X") ? Long.parseLong(t.substring(2), 16) : Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new IOException(file + ": not a number: " + quote(t));
        }
    }

    private static final java.util.regex.Pattern NUMBER =
            java.util.regex.Pattern.compile("([+-]?(?:0[xX][0-9a-fA-F]+|(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d{1,3})?))\\s*(.*)");

    /**
     * The value in {@code schema}'s unit that {@code text} (a file's content or a command's output,
     * trimmed) holds when it is exactly one number: decimal (with an exponent) or 0x hexadecimal,
     * optionally followed by the vertex's declared unit, as UCUM text or as shown ({@code 21.5},
     * {@code 21.5 Cel}, {@code 21.5 °C}, {@code 21.5°C}), the same suffixes {@code spectrum write}
     * takes. Anything else is refused with the reason, and nothing is published: {@code garbage},
     * {@code 72 mV} on a °C vertex, {@code 72 %} on a vertex without a unit, two numbers.
     */
    public static double numberIn(String text, VertexSchema schema) throws IOException {
        String t = text.trim();
        java.util.regex.Matcher m = NUMBER.matcher(t);
        if (!m.matches()) {
            throw new IOException("not a number: " + quote(t));
        }
        String suffix = m.group(2);
        if (!suffix.isEmpty() && !suffix.equals(schema.unit()) && !suffix.equals(schema.unitSymbol())) {
            throw new IOException(schema.unit() == null
                    ? quote(t) + " is not a bare number (the vertex has no unit)"
                    : quote(t) + " is not in " + schema.unitSymbol() + " (the vertex's unit)");
        }
        String n = m.group(1);
        int x = Math.max(n.indexOf('x'), n.indexOf('X'));
        double v;
        try {
            v = x < 0 ? Double.parseDouble(n) : (n.startsWith("-") ? -1 : 1) * (double) Long.parseLong(n.substring(x + 1), 16);
        } catch (NumberFormatException e) {
            throw new IOException("not a number: " + quote(t));
        }
        if (!Double.isFinite(v)) {
            throw new IOException("not a finite number: " + quote(t));
        }
        return v;
    }

    /** Text as a reason quotes it: at most 40 characters, on one line. */
    static String quote(String text) {
        String t = text.length() > 40 ? text.substring(0, 40) + "..." : text;
        return "\"" + t.replace("\n", "\\n").replace("\r", "\\r") + "\"";
    }

    /** The text's first number as a double (a kernel file whose first word is the number). */
    public static double number(String text, String what) throws IOException {
        String t = firstWord(text.trim());
        try {
            return t.startsWith("0x") ? Long.parseLong(t.substring(2), 16) : Double.parseDouble(t);
        } catch (NumberFormatException e) {
            throw new IOException(what + ": not a number: " + quote(t));
        }
    }

    static String firstWord(String t) {
        int end = 0;
        while (end < t.length() && !Character.isWhitespace(t.charAt(end))) {
            end++;
        }
        return t.substring(0, end);
    }
}
