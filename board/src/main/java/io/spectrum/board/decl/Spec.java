package io.spectrum.board.decl;

import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One mapping of a board file with its line numbers: typed getters that refuse a missing, mistyped
 * or out-of-range value with a {@link BoardFileError} naming the line and the field, and
 * {@link #done} refuses keys nobody read (a typo is an error, not a silent default).
 */
final class Spec {
    private final String file;
    private final String where;
    private final Node node;
    private final Map<String, NodeTuple> entries = new LinkedHashMap<>();
    private final Set<String> used = new TreeSet<>();

    private Spec(String file, String where, Node node) throws BoardFileError {
        this.file = file;
        this.where = where;
        this.node = node;
        if (!(node instanceof MappingNode m)) {
            throw new BoardFileError(file, line(node), where, "must be a mapping of key: value");
        }
        for (NodeTuple t : m.getValue()) {
            if (!(t.getKeyNode() instanceof ScalarNode k)) {
                throw new BoardFileError(file, line(t.getKeyNode()), where, "keys must be plain words");
            }
            if (entries.put(k.getValue(), t) != null) {
                throw new BoardFileError(file, line(k), field(k.getValue()), "given twice");
            }
        }
    }

    static Spec root(String file, Node node) throws BoardFileError {
        return new Spec(file, "", node);
    }

    static int line(Node n) {
        return n.getStartMark().map(m -> m.getLine() + 1).orElse(0);
    }

    String file() {
        return file;
    }

    String where() {
        return where;
    }

    int line() {
        return line(node);
    }

    String field(String key) {
        return where.isEmpty() ? key : where + "." + key;
    }

    /** Whether the key is given; asking also makes it one of the keys that fit here (named when one is unknown). */
    boolean has(String key) {
        used.add(key);
        return entries.containsKey(key);
    }

    BoardFileError error(String key, String problem) {
        NodeTuple t = entries.get(key);
        return new BoardFileError(file, t != null ? line(t.getValueNode()) : line(), key == null ? where : field(key), problem);
    }

    private Node value(String key) {
        used.add(key);
        NodeTuple t = entries.get(key);
        return t == null ? null : t.getValueNode();
    }

    String text(String key) throws BoardFileError {
        String s = text(key, null);
        if (s == null) {
            throw new BoardFileError(file, line(), field(key), "is required" + typoHint(key));
        }
        return s;
    }

    String text(String key, String fallback) throws BoardFileError {
        Node v = value(key);
        if (v == null) {
            return fallback;
        }
        if (!(v instanceof ScalarNode s)) {
            throw error(key, "must be a single value");
        }
        return s.getValue();
    }

    long integer(String key, long fallback, long min, long max) throws BoardFileError {
        String s = text(key, null);
        if (s == null) {
            return fallback;
        }
        long v;
        try {
            v = parseInteger(s);
        } catch (NumberFormatException e) {
            throw error(key, "'" + s + "' is not a whole number");
        }
        if (v < min || v > max) {
            throw error(key, v + " is out of range " + min + ".." + max);
        }
        return v;
    }

    static long parseInteger(String s) {
        String t = s.trim().replace("_", "");
        if (t.startsWith("0x") || t.startsWith("0X")) {
            return Long.parseLong(t.substring(2), 16);
        }
        if (t.startsWith("-0x")) {
            return -Long.parseLong(t.substring(3), 16);
        }
        return Long.parseLong(t);
    }

    double number(String key, double fallback) throws BoardFileError {
        String s = text(key, null);
        if (s == null) {
            return fallback;
        }
        try {
            double d = Double.parseDouble(s.trim());
            if (!Double.isFinite(d)) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw error(key, "'" + s + "' is not a number");
        }
    }

    /** A duration: {@code 250ms}, {@code 2s}, {@code 1m}, or a bare number of milliseconds. */
    long millis(String key, long fallback) throws BoardFileError {
        String s = text(key, null);
        if (s == null) {
            return fallback;
        }
        String t = s.trim();
        long unit = 1;
        String n = t;
        if (t.endsWith("ms")) {
            n = t.substring(0, t.length() - 2);
        } else if (t.endsWith("s")) {
            n = t.substring(0, t.length() - 1);
            unit = 1000;
        } else if (t.endsWith("m")) {
            n = t.substring(0, t.length() - 1);
            unit = 60_000;
        }
        try {
            double v = Double.parseDouble(n.trim()) * unit;
            if (v < 0 || v > 86_400_000d || !Double.isFinite(v)) {
                throw error(key, "'" + s + "' must be 0 .. 24h");
            }
            return Math.round(v);
        } catch (NumberFormatException e) {
            throw error(key, "'" + s + "' is not a duration (e.g. 250ms, 2s, 1m)");
        }
    }

    String choice(String key, String fallback, String... allowed) throws BoardFileError {
        String s = text(key, fallback);
        if (s == null) {
            throw new BoardFileError(file, line(), field(key), "is required (one of " + String.join(", ", allowed) + ")"
                    + typoHint(key));
        }
        for (String a : allowed) {
            if (a.equals(s)) {
                return s;
            }
        }
        throw error(key, "'" + s + "' is not one of " + String.join(", ", allowed));
    }

    Spec child(String key) throws BoardFileError {
        Node v = value(key);
        return v == null ? null : new Spec(file, field(key), v);
    }

    List<Spec> list(String key) throws BoardFileError {
        Node v = value(key);
        List<Spec> out = new ArrayList<>();
        if (v == null) {
            return out;
        }
        if (!(v instanceof SequenceNode seq)) {
            throw error(key, "must be a list (lines starting with '- ')");
        }
        int i = 0;
        for (Node n : seq.getValue()) {
            out.add(new Spec(file, field(key) + "[" + i++ + "]", n));
        }
        return out;
    }

    /** A list of plain values, or one value as a list of one. */
    List<String> strings(String key) throws BoardFileError {
        return io.spectrum.runtime.YamlFile.texts(value(key), key, this::error);
    }

    /** A mapping of plain keys to plain values (app settings). */
    Map<String, String> strings(String key, boolean mapping) throws BoardFileError {
        Spec c = child(key);
        Map<String, String> out = new LinkedHashMap<>();
        if (c == null) {
            return out;
        }
        for (String k : c.entries.keySet()) {
            out.put(k, c.text(k));
        }
        return out;
    }

    /**
     * Refuses keys nobody asked for (typos), naming the keys that fit here (every key this mapping's
     * parsing asked for, given or not) and the nearest of them.
     */
    void done() throws BoardFileError {
        for (Map.Entry<String, NodeTuple> e : entries.entrySet()) {
            if (!used.contains(e.getKey())) {
                String near = nearest(e.getKey(), used);
                throw new BoardFileError(file, line(e.getValue().getKeyNode()), field(e.getKey()),
                        "unknown key" + (near == null ? "" : ", did you mean " + near + "?")
                                + " (known here: " + String.join(", ", used) + ")");
            }
        }
    }

    /** For a required key that is missing: a given key nobody asked for that is spelled nearly like it. */
    private String typoHint(String key) {
        for (Map.Entry<String, NodeTuple> e : entries.entrySet()) {
            if (!used.contains(e.getKey()) && close(e.getKey(), key)) {
                return " ('" + e.getKey() + "' on line " + line(e.getValue().getKeyNode()) + " is not a key here; was "
                        + key + " meant?)";
            }
        }
        return "";
    }

    /** The one of {@code among} spelled most nearly like {@code word}, or null when none is close. */
    static String nearest(String word, Iterable<String> among) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String k : among) {
            int d = distance(word, k);
            if (close(word, k) && d < bestDistance) {
                best = k;
                bestDistance = d;
            }
        }
        return best;
    }

    /** Close enough to be a typo: one edit for a short word, two for a longer one (a swap of neighbours is one). */
    static boolean close(String a, String b) {
        return distance(a, b) <= (Math.min(a.length(), b.length()) <= 4 ? 1 : 2);
    }

    /**
     * Edits between two words (insert, delete, replace, or swap two neighbours: optimal string
     * alignment); for the few short spellings of a refusal.
     */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(d[i - 1][j - 1] + cost, Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1));
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
