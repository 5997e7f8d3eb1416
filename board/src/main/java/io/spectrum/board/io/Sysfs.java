package io.spectrum.board.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reading the kernel's small text files (/sys, /proc) and values people write in them. */
public final class Sysfs {
    private Sysfs() {
    }

    public static String text(Path file) throws IOException {
        return new String(Files.readAllBytes(file), StandardCharsets.US_ASCII).trim();
    }

    /** The file's first number: decimal, or hexadecimal with 0x. */
    public static long integer(Path file) throws IOException {
        String t = firstWord(text(file));
        try {
            return t.startsWith("0x") || t.startsWith("0X") ? Long.parseLong(t.substring(2), 16) : Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new IOException(file + " holds '" + t + "', not a number");
        }
    }

    /** The text's first number as a double (a file or a command's output). */
    public static double number(String text, String what) throws IOException {
        String t = firstWord(text.trim());
        try {
            return t.startsWith("0x") ? Long.parseLong(t.substring(2), 16) : Double.parseDouble(t);
        } catch (NumberFormatException e) {
            throw new IOException(what + " gave '" + t + "', not a number");
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
