package io.spectrum.host;

import io.spectrum.wide.Grants;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The {@code spectrum host --bus-grants FILE} file: YAML mapping each client name (the name a
 * client connects as) to what it may do, plus an {@code anonymous} entry for connections without
 * a name and for every name the file does not list (a client chooses its own name; the file
 * grants, it does not authenticate). Each entry maps any of {@code publish}, {@code subscribe},
 * {@code serve}, {@code call}, {@code manage} (declare, clear, delete topics) to one pattern or a
 * list of them: {@code "*"} (every name), {@code name*} (every name starting with {@code name}),
 * or an exact name. A permission not given is refused; without an {@code anonymous} entry an
 * unlisted client may do nothing.
 *
 * <pre>
 * anonymous:
 *   subscribe: "*"
 * camera:
 *   publish: camera.*
 *   serve: [camera.snap]
 *   manage: camera.*
 * </pre>
 */
final class GrantsFile {
    static final String ANONYMOUS = "anonymous";
    private static final List<String> PERMISSIONS = List.of("publish", "subscribe", "serve", "call", "manage");

    private final Map<String, Grants> byName;
    private final Grants anonymous;

    private GrantsFile(Map<String, Grants> byName, Grants anonymous) {
        this.byName = byName;
        this.anonymous = anonymous;
    }

    /** Reads and checks {@code file}; the exception's message is one line naming the first problem. */
    static GrantsFile read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage());
        }
        return parse(text, file.toString());
    }

    static GrantsFile parse(String text, String label) {
        Object doc;
        try {
            doc = new Load(LoadSettings.builder().setLabel(label).setAllowDuplicateKeys(false).build()).loadFromString(text);
        } catch (YamlEngineException e) {
            throw new IllegalArgumentException(label + ": not YAML: " + e.getMessage().lines().findFirst().orElse(""));
        }
        if (!(doc instanceof Map<?, ?> top)) {
            throw new IllegalArgumentException(label + ": expected a map of client names to grants, e.g. 'anonymous:"
                    + " {subscribe: \"*\"}'");
        }
        Map<String, Grants> byName = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : top.entrySet()) {
            if (!(e.getKey() instanceof String name) || name.isEmpty()) {
                throw new IllegalArgumentException(label + ": a client name must be a non-empty text, got " + e.getKey());
            }
            byName.put(name, grants(label + ": " + name, e.getValue()));
        }
        Grants anon = byName.remove(ANONYMOUS);
        return new GrantsFile(Map.copyOf(byName), anon == null ? Grants.closed() : anon);
    }

    private static Grants grants(String where, Object entry) {
        Grants.Builder b = Grants.builder();
        if (entry == null) {
            return b.build();
        }
        if (!(entry instanceof Map<?, ?> perms)) {
            throw new IllegalArgumentException(where + ": expected a map of " + String.join("/", PERMISSIONS)
                    + " to patterns");
        }
        for (Map.Entry<?, ?> p : perms.entrySet()) {
            Object key = p.getKey();
            if (!PERMISSIONS.contains(key)) {
                throw new IllegalArgumentException(where + ": unknown permission '" + key + "' (one of "
                        + String.join(", ", PERMISSIONS) + ")");
            }
            Grants.Pattern[] patterns = patterns(where + "." + key, p.getValue());
            switch ((String) key) {
                case "publish" -> b.publish(patterns);
                case "subscribe" -> b.subscribe(patterns);
                case "serve" -> b.serve(patterns);
                case "call" -> b.call(patterns);
                default -> b.manage(patterns);
            }
        }
        return b.build();
    }

    private static Grants.Pattern[] patterns(String where, Object value) {
        List<?> items = value instanceof List<?> l ? l : value == null ? List.of() : List.of(value);
        List<Grants.Pattern> out = new ArrayList<>();
        for (Object o : items) {
            if (!(o instanceof String s) || s.isEmpty()) {
                throw new IllegalArgumentException(where + ": a pattern is a text (\"*\", name* or a name), got " + o);
            }
            out.add(pattern(where, s));
        }
        return out.toArray(Grants.Pattern[]::new);
    }

    private static Grants.Pattern pattern(String where, String s) {
        if (s.equals("*")) {
            return Grants.Pattern.any();
        }
        String stem = s.endsWith("*") ? s.substring(0, s.length() - 1) : s;
        if (stem.indexOf('*') >= 0) {
            throw new IllegalArgumentException(where + ": '" + s + "': '*' may only end a pattern (a prefix)");
        }
        return s.endsWith("*") ? Grants.Pattern.prefix(stem) : Grants.Pattern.exact(s);
    }

    /** The grants of each connection: its name's entry, else the anonymous one. */
    Function<String, Grants> lookup() {
        return name -> name == null ? anonymous : byName.getOrDefault(name, anonymous);
    }

    /** The client names the file lists (not anonymous). */
    int names() {
        return byName.size();
    }
}
