package io.spectrum.wide;

import java.util.ArrayList;
import java.util.List;

/**
 * What one client name may do, on the host's node and on its bus alike (docs/host.md, "The grants
 * file"): per {@link Permission}, a list of {@link Pattern}s (any, exact, prefix); a name no pattern
 * of the permission matches is refused. A vertex has two spellings, its node path
 * ({@code /lab/setpoint}) and, as a bus topic, its dotted name ({@code lab.setpoint}): the same
 * vertex ({@link TopicPaths}). So for the permissions on vertices ({@code publish},
 * {@code subscribe}, {@code manage}) a pattern in either spelling covers it, whichever door the
 * request came through. Services are bus names only: {@code serve} and {@code call} patterns match
 * the name as given. Patterns are grants, never routing wildcards. Immutable.
 */
public final class Grants {
    /** The operations a grant covers; the grants file's keys are their lower-case names. */
    public enum Permission {
        /** Node: WRITE a vertex's value. Bus: publish to a topic. */
        PUBLISH,
        /** Node: READ or AWAIT a vertex, append to or replace in its {@code :subscribers}. Bus: subscribe to a topic. */
        SUBSCRIBE,
        /** Bus: register (serve) a service. */
        SERVE,
        /** Bus: call a service. */
        CALL,
        /** Node: change what a vertex declares. Bus: declare, clear and delete topics. */
        MANAGE;

        /** The grants file's spelling: {@code publish}, {@code subscribe}, {@code serve}, {@code call}, {@code manage}. */
        public String key() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final List<List<Pattern>> byPermission;

    private Grants(Builder b) {
        List<List<Pattern>> all = new ArrayList<>();
        for (List<Pattern> l : b.byPermission) {
            all.add(List.copyOf(l));
        }
        byPermission = List.copyOf(all);
    }

    /** Everything allowed (tests, trusted single-user setups, a host without a grants file). */
    public static Grants open() {
        Builder b = builder();
        for (Permission p : Permission.values()) {
            b.add(p, Pattern.any());
        }
        return b.build();
    }

    /** Nothing allowed. */
    public static Grants closed() {
        return builder().build();
    }

    /** An empty builder: every permission starts with no pattern (nothing allowed). */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * True when some pattern of {@code permission} covers {@code name} (a node path or a bus name);
     * for a permission on vertices, in either of the vertex's spellings.
     */
    public boolean allows(Permission permission, String name) {
        if (matches(permission, name)) {
            return true;
        }
        if (permission == Permission.SERVE || permission == Permission.CALL) {
            return false; // a service is no vertex: its name has one spelling
        }
        String other = TopicPaths.other(name);
        return other != null && matches(permission, other);
    }

    private boolean matches(Permission permission, String name) {
        for (Pattern p : byPermission.get(permission.ordinal())) {
            if (p.matches(name)) {
                return true;
            }
        }
        return false;
    }

    /** One grant pattern: every name, one exact name, or every name starting with a prefix. */
    public record Pattern(Kind kind, String text) {
        /** How a pattern matches: ANY every name, EXACT one name, PREFIX every name starting with the text. */
        public enum Kind { ANY, EXACT, PREFIX }

        /**
         * Checks the pattern; {@link IllegalArgumentException} without a kind, or with an empty text for EXACT or
         * PREFIX.
         */
        public Pattern {
            if (kind == null || (kind != Kind.ANY && (text == null || text.isEmpty()))) {
                throw new IllegalArgumentException("a pattern needs a kind and (unless any) a text");
            }
        }

        /** Matches every name. */
        public static Pattern any() {
            return new Pattern(Kind.ANY, "");
        }

        /** Matches {@code name} only. */
        public static Pattern exact(String name) {
            return new Pattern(Kind.EXACT, name);
        }

        /**
         * Matches every name that starts with {@code prefix} (a plain string prefix, no wildcard):
         * {@code /lab/} covers {@code /lab/setpoint} and everything under it, not {@code /lab} itself.
         */
        public static Pattern prefix(String prefix) {
            return new Pattern(Kind.PREFIX, prefix);
        }

        /** True when {@code name} is covered by this pattern. */
        public boolean matches(String name) {
            return switch (kind) {
                case ANY -> true;
                case EXACT -> text.equals(name);
                case PREFIX -> name.startsWith(text);
            };
        }
    }

    /** Collects patterns per permission. */
    public static final class Builder {
        private final List<List<Pattern>> byPermission = new ArrayList<>();

        private Builder() {
            for (int i = 0; i < Permission.values().length; i++) {
                byPermission.add(new ArrayList<>());
            }
        }

        /** Adds patterns to {@code permission}. */
        public Builder add(Permission permission, Pattern... p) {
            byPermission.get(permission.ordinal()).addAll(List.of(p));
            return this;
        }

        /** Adds patterns of the vertices and topics the client may publish to. */
        public Builder publish(Pattern... p) {
            return add(Permission.PUBLISH, p);
        }

        /** Adds patterns of the vertices and topics the client may read and subscribe to. */
        public Builder subscribe(Pattern... p) {
            return add(Permission.SUBSCRIBE, p);
        }

        /** Adds patterns of the service names the client may register (serve). */
        public Builder serve(Pattern... p) {
            return add(Permission.SERVE, p);
        }

        /** Adds patterns of the service names the client may call. */
        public Builder call(Pattern... p) {
            return add(Permission.CALL, p);
        }

        /** Adds patterns of the vertices and topics the client may manage (bus: declare, clear and delete). */
        public Builder manage(Pattern... p) {
            return add(Permission.MANAGE, p);
        }

        /** The immutable grants; the builder can go on to build others. */
        public Grants build() {
            return new Grants(this);
        }
    }
}
