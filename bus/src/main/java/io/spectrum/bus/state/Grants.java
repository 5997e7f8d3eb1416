package io.spectrum.bus.state;

import io.spectrum.wire.BusError;

import java.util.List;
import io.spectrum.bus.protocol.BusException;

/**
 * What one client may do (docs/bus.md, "The grants file"): which names it may
 * publish to, subscribe to, serve (register) or call, and whether it may manage topics (declare,
 * clear, delete). Each permission is a list of {@link Pattern}s (any, exact, prefix); a name no
 * pattern matches is {@link BusError#NOT_AUTHORIZED}. Patterns are grants, never routing
 * wildcards. Immutable.
 */
public final class Grants {
    private final List<Pattern> publish;
    private final List<Pattern> subscribe;
    private final List<Pattern> register;
    private final List<Pattern> call;
    private final List<Pattern> manageTopics;

    private Grants(Builder b) {
        publish = List.copyOf(b.publish);
        subscribe = List.copyOf(b.subscribe);
        register = List.copyOf(b.register);
        call = List.copyOf(b.call);
        manageTopics = List.copyOf(b.manageTopics);
    }

    /** Everything allowed (tests, trusted single-user setups). */
    public static Grants open() {
        return builder().publish(Pattern.any()).subscribe(Pattern.any()).register(Pattern.any())
                .call(Pattern.any()).manageTopics(Pattern.any()).build();
    }

    /** Nothing allowed. */
    public static Grants closed() {
        return builder().build();
    }

    /** An empty builder: every permission starts with no pattern (nothing allowed). */
    public static Builder builder() {
        return new Builder();
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

        /** Matches every name that starts with {@code prefix} (a plain string prefix, no wildcard). */
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

    /** The operations a grant covers. */
    enum Op { PUBLISH, SUBSCRIBE, REGISTER, CALL, MANAGE_TOPICS }

    void check(Op op, String name) throws BusException {
        List<Pattern> list = switch (op) {
            case PUBLISH -> publish;
            case SUBSCRIBE -> subscribe;
            case REGISTER -> register;
            case CALL -> call;
            case MANAGE_TOPICS -> manageTopics;
        };
        for (Pattern p : list) {
            if (p.matches(name)) {
                return;
            }
        }
        throw new BusException(BusError.NOT_AUTHORIZED, "no " + op.name().toLowerCase() + " grant for " + name);
    }

    /** Collects patterns per permission. */
    public static final class Builder {
        private final java.util.ArrayList<Pattern> publish = new java.util.ArrayList<>();
        private final java.util.ArrayList<Pattern> subscribe = new java.util.ArrayList<>();
        private final java.util.ArrayList<Pattern> register = new java.util.ArrayList<>();
        private final java.util.ArrayList<Pattern> call = new java.util.ArrayList<>();
        private final java.util.ArrayList<Pattern> manageTopics = new java.util.ArrayList<>();

        private Builder() {
        }

        /** Adds patterns of the topics the client may publish to. */
        public Builder publish(Pattern... p) { publish.addAll(List.of(p)); return this; }
        /** Adds patterns of the topics the client may subscribe to. */
        public Builder subscribe(Pattern... p) { subscribe.addAll(List.of(p)); return this; }
        /** Adds patterns of the service names the client may register (serve). */
        public Builder register(Pattern... p) { register.addAll(List.of(p)); return this; }
        /** Adds patterns of the service names the client may call. */
        public Builder call(Pattern... p) { call.addAll(List.of(p)); return this; }
        /** Adds patterns of the topics the client may declare, clear and delete. */
        public Builder manageTopics(Pattern... p) { manageTopics.addAll(List.of(p)); return this; }

        /** The immutable grants; the builder can go on to build others. */
        public Grants build() {
            return new Grants(this);
        }
    }
}
