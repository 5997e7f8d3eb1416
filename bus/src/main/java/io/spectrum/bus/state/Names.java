package io.spectrum.bus.state;

import io.spectrum.wire.BusError;
import io.spectrum.bus.protocol.BusException;

/**
 * The bus's name and id grammar: topic and service names, client ids, method
 * strings, content types, and the router-issued serial ids ({@code sub-N}, {@code dlv-N},
 * {@code own-N}, {@code call-N}). Every refusal is {@link BusError#INVALID_ENVELOPE}.
 */
final class Names {
    static final int MAX_NAME = 192;
    static final int MAX_ID = 64;
    static final int MAX_METHOD = 128;
    static final int MAX_CONTENT_TYPE = 127;
    /** Digits of the largest U64. */
    static final int MAX_U64_DIGITS = 20;

    private Names() {
    }

    /** A topic or service name: 1..192 chars of [a-z0-9._-] with no empty dot segment. */
    static String name(String what, String s) throws BusException {
        if (s == null || s.isEmpty() || s.length() > MAX_NAME) {
            throw invalid(what + " must be 1.." + MAX_NAME + " characters");
        }
        char prev = '.';
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!nameChar(c)) {
                throw invalid(what + " has a character outside [a-z0-9._-]: " + s);
            }
            if (c == '.' && prev == '.') {
                throw invalid(what + " has an empty dot segment: " + s);
            }
            prev = c;
        }
        if (prev == '.') {
            throw invalid(what + " has an empty dot segment: " + s);
        }
        return s;
    }

    /** An Id: {@code [a-z0-9][a-z0-9._-]{0,63}}. */
    /**
     * A topic name: a {@link #name} whose dot segments each fit a node path's segment
     * ({@link io.spectrum.wire.PathKeys#MAX_SEGMENT_BYTES}), since topic {@code a.b} is vertex {@code /a/b}.
     */
    static String topic(String s) throws BusException {
        name("topic", s);
        int start = 0;
        for (int i = 0; i <= s.length(); i++) {
            if (i == s.length() || s.charAt(i) == '.') {
                if (i - start > io.spectrum.wire.PathKeys.MAX_SEGMENT_BYTES) {
                    throw invalid("topic has a dot segment over " + io.spectrum.wire.PathKeys.MAX_SEGMENT_BYTES
                            + " characters (a node path's segment): " + s);
                }
                start = i + 1;
            }
        }
        return s;
    }

    static String id(String what, String s) throws BusException {
        if (s == null || s.isEmpty() || s.length() > MAX_ID || !lowerOrDigit(s.charAt(0))) {
            throw invalid(what + " is not an id: " + s);
        }
        for (int i = 1; i < s.length(); i++) {
            if (!nameChar(s.charAt(i))) {
                throw invalid(what + " is not an id: " + s);
            }
        }
        return s;
    }

    /** A method string: 1..128 printable ASCII characters. */
    static String method(String s) throws BusException {
        if (s == null || s.isEmpty() || s.length() > MAX_METHOD) {
            throw invalid("method must be 1.." + MAX_METHOD + " characters");
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                throw invalid("method has a non-printable character");
            }
        }
        return s;
    }

    /** A content type: a nonempty printable ASCII string of at most 127 bytes. */
    static String contentType(String s) throws BusException {
        if (s == null || s.isEmpty() || s.length() > MAX_CONTENT_TYPE) {
            throw invalid("contentType must be 1.." + MAX_CONTENT_TYPE + " ASCII characters");
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                throw invalid("contentType has a non-printable character");
            }
        }
        return s;
    }

    /** A queue or credit request: 1..65535. */
    static int range(String what, int v) throws BusException {
        if (v < 1 || v > 65535) {
            throw invalid(what + " must be 1..65535, got " + v);
        }
        return v;
    }

    /** The canonical serial id {@code prefix-<U64>} (no leading zero, nonzero). */
    static String serial(String prefix, long n) {
        return prefix + "-" + Long.toUnsignedString(n);
    }

    /**
     * The serial number of a canonical {@code prefix-<U64>} id, the prefix lower-case letters (unsigned; compare with
     * {@link Long#compareUnsigned}).
     *
     * @throws BusException INVALID_ENVELOPE when {@code s} is no serial id at all
     */
    static long serialNumber(String s) throws BusException {
        if (s == null) {
            throw invalid("missing id");
        }
        int dash = s.lastIndexOf('-');
        if (dash <= 0 || dash == s.length() - 1 || s.length() - dash - 1 > MAX_U64_DIGITS) {
            throw invalid("not a serial id: " + s);
        }
        for (int i = 0; i < dash; i++) {
            if (s.charAt(i) < 'a' || s.charAt(i) > 'z') {
                throw invalid("not a serial id: " + s);
            }
        }
        String digits = s.substring(dash + 1);
        if (digits.charAt(0) == '0') {
            throw invalid("not a canonical serial id: " + s);
        }
        for (int i = 0; i < digits.length(); i++) {
            if (digits.charAt(i) < '0' || digits.charAt(i) > '9') {
                throw invalid("not a serial id: " + s);
            }
        }
        try {
            return Long.parseUnsignedLong(digits);
        } catch (NumberFormatException e) {
            throw invalid("serial out of range: " + s);
        }
    }

    /** True when the serial id {@code s} (already checked by {@link #serialNumber}) has {@code prefix}. */
    static boolean hasPrefix(String prefix, String s) {
        return s.length() > prefix.length() + 1 && s.startsWith(prefix) && s.charAt(prefix.length()) == '-'
                && s.lastIndexOf('-') == prefix.length();
    }

    private static boolean lowerOrDigit(char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    }

    private static boolean nameChar(char c) {
        return lowerOrDigit(c) || c == '.' || c == '_' || c == '-';
    }

    static BusException invalid(String message) {
        return new BusException(BusError.INVALID_ENVELOPE, message);
    }
}
