package io.spectrum.host.history;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * How history options and queries spell times (one reader for {@code spectrum host}'s retentions,
 * {@code spectrum history} and {@code GET /api/history}): a duration is a number and a unit,
 * {@code 500ms}, {@code 30s}, {@code 15m}, {@code 1h}, {@code 7d}, {@code 52w}, {@code 1y} (365 d);
 * a moment is a duration back from now ({@code 1h}: an hour ago), an ISO-8601 instant
 * ({@code 2026-12-03T10:00:00Z}), {@code now}, or epoch milliseconds.
 */
public final class HistoryTime {
    private HistoryTime() { }

    /** @throws IllegalArgumentException saying how a duration is written */
    public static long durationMs(String s) {
        String t = s == null ? "" : s.trim();
        int i = 0;
        while (i < t.length() && Character.isDigit(t.charAt(i))) {
            i++;
        }
        if (i == 0 || i == t.length()) {
            throw new IllegalArgumentException("'" + s + "' is not a duration (write e.g. 30s, 15m, 1h, 7d, 1y)");
        }
        long n;
        try {
            n = Long.parseLong(t.substring(0, i));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + s + "' is too long a duration");
        }
        long unit = switch (t.substring(i)) {
            case "ms" -> 1L;
            case "s" -> 1000L;
            case "m", "min" -> 60_000L;
            case "h" -> 3_600_000L;
            case "d" -> 86_400_000L;
            case "w" -> 7 * 86_400_000L;
            case "y" -> 365 * 86_400_000L;
            default -> throw new IllegalArgumentException("'" + s + "' is not a duration (write e.g. 30s, 15m, 1h, 7d, 1y)");
        };
        if (n <= 0 || n > Long.MAX_VALUE / unit / 2) {
            throw new IllegalArgumentException("'" + s + "' is not a positive duration");
        }
        return n * unit;
    }

    /** A moment, epoch ms; a duration means that long before {@code nowMs}. */
    public static long momentMs(String s, long nowMs) {
        String t = s == null ? "" : s.trim();
        if (t.equals("now")) {
            return nowMs;
        }
        if (!t.isEmpty() && t.chars().allMatch(Character::isDigit)) {
            try {
                return Long.parseLong(t);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + s + "' is not a time");
            }
        }
        if (t.contains("T") || t.contains(":")) {
            try {
                return Instant.parse(t).toEpochMilli();
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("'" + s + "' is not a time (write e.g. 1h for an hour ago, "
                        + "2026-12-03T10:00:00Z, or epoch ms)");
            }
        }
        try {
            return nowMs - durationMs(t);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + s + "' is not a time (write e.g. 1h for an hour ago, "
                    + "2026-12-03T10:00:00Z, or epoch ms)");
        }
    }
}
