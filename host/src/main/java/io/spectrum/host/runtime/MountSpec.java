package io.spectrum.host.runtime;

import io.spectrum.node.api.NodePath;

import java.util.ArrayList;
import java.util.List;

/**
 * How a host is told its mounts on the command line: {@code NAME=ADDRESS} (or a bare
 * {@code ADDRESS}, which takes a default name; an address may be a link URI, whose own {@code =}
 * after its {@code ://} or {@code ?} is no name) and {@code NAME=/top1,/top2} top-level names for a
 * mount whose root cannot be listed. One owner for the spelling and its checks; the CLI and the
 * demo call it.
 */
public final class MountSpec {
    private MountSpec() {
    }

    /** A parsed {@code [NAME=]ADDRESS}: {@code name} is null when none was given. */
    public record Named(String name, String address) { }

    /**
     * Splits {@code [NAME=]ADDRESS}. A NAME is one path segment (letters, digits, {@code - _ .}),
     * not starting with {@code $} (reserved for the node's own vertices).
     *
     * @throws IllegalArgumentException with a one-line reason
     */
    public static Named parse(String spec) {
        int eq = spec.indexOf('=');
        int scheme = spec.indexOf("://");
        int query = spec.indexOf('?');
        if (eq < 0 || scheme >= 0 && scheme < eq || query >= 0 && query < eq) {
            return new Named(null, spec); // no NAME=: the '=' is a link URI's own (serial:///dev/x?baud=9600)
        }
        String name = spec.substring(0, eq);
        String why = badName(name);
        if (why != null) {
            throw new IllegalArgumentException(why);
        }
        String address = spec.substring(eq + 1);
        if (address.isEmpty()) {
            throw new IllegalArgumentException("'" + spec + "' names no address after '='");
        }
        return new Named(name, address);
    }

    /** Why {@code name} cannot be a mount name, or null when it can. */
    public static String badName(String name) {
        if (name == null || name.isEmpty()) {
            return "a mount name is empty";
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
                    || c == '.';
            if (!ok) {
                return "mount name '" + name + "' may hold only letters, digits, '-', '_' and '.'";
            }
        }
        return null;
    }

    /**
     * Parses {@code NAME=/a,/b}: the mount and its top-level paths (each one segment, e.g.
     * {@code /sensor}).
     *
     * @throws IllegalArgumentException with a one-line reason
     */
    public static Top top(String spec) {
        int eq = spec.indexOf('=');
        if (eq <= 0) {
            throw new IllegalArgumentException("'" + spec + "' is not NAME=/top1,/top2 (e.g. ref=/sensor,/cfg)");
        }
        String name = spec.substring(0, eq);
        String why = badName(name);
        if (why != null) {
            throw new IllegalArgumentException(why);
        }
        List<String> names = new ArrayList<>();
        for (String p : spec.substring(eq + 1).split(",")) {
            String t = p.strip();
            NodePath path;
            try {
                path = NodePath.of(t.startsWith("/") ? t : "/" + t);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("'" + t + "' in --top " + spec + " is not a path: " + e.getMessage());
            }
            String s = path.toString();
            if (s.equals("/") || s.indexOf('/', 1) >= 0) {
                throw new IllegalArgumentException("'" + t + "' in --top " + spec + " is not one top-level name like /sensor");
            }
            names.add(s.substring(1));
        }
        return new Top(name, List.copyOf(names));
    }

    /** A mount's top-level names (segments, without the slash). */
    public record Top(String mount, List<String> names) { }
}
