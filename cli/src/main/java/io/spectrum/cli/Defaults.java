package io.spectrum.cli;

import io.spectrum.cli.options.PeerOptions;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Defaults for the client commands' {@code --peer}, {@code --timeout} and {@code --format}, so a
 * user says where the node is once: the environment ({@code SPECTRUM_PEER}, {@code SPECTRUM_TIMEOUT},
 * {@code SPECTRUM_FORMAT}) wins over the config file ({@code $SPECTRUM_CONFIG}, else
 * {@code $XDG_CONFIG_HOME/spectrum/config}, else {@code ~/.config/spectrum/config}: {@code KEY=value}
 * lines with keys {@code peer}, {@code timeout}, {@code format}; {@code #} starts a comment). An
 * option on the command line wins over both. Every command that talks to a node through
 * {@link PeerOptions} takes these defaults; {@code host}'s {@code --peer} is a board, not a default node.
 */
final class Defaults implements CommandLine.IDefaultValueProvider {
    private static final List<String> KEYS = List.of("peer", "timeout", "format");

    private final Map<String, String> values;
    private final String source;

    private Defaults(Map<String, String> values, String source) {
        this.values = values;
        this.source = source;
    }

    /** No defaults (tests). */
    static Defaults none() {
        return new Defaults(Map.of(), "");
    }

    /** This process's environment and config file. */
    static Defaults fromEnvironment() {
        return of(System.getenv(), Path.of(System.getProperty("user.home", ".")));
    }

    /** Defaults from {@code env} and the config file it (or {@code home}) points at. */
    static Defaults of(Map<String, String> env, Path home) {
        Path file = env.containsKey("SPECTRUM_CONFIG") ? Path.of(env.get("SPECTRUM_CONFIG"))
                : env.containsKey("XDG_CONFIG_HOME") ? Path.of(env.get("XDG_CONFIG_HOME"), "spectrum", "config")
                : home.resolve(".config/spectrum/config");
        Map<String, String> v = new HashMap<>(readConfig(file));
        for (String k : KEYS) {
            String e = env.get("SPECTRUM_" + k.toUpperCase(java.util.Locale.ROOT));
            if (e != null && !e.isBlank()) {
                v.put(k, e.trim());
            }
        }
        return new Defaults(v, file.toString());
    }

    /** {@code KEY=value} lines; a missing or unreadable file is no defaults. */
    static Map<String, String> readConfig(Path file) {
        Map<String, String> v = new HashMap<>();
        if (!Files.isRegularFile(file)) {
            return v;
        }
        try {
            for (String line : Files.readAllLines(file)) {
                String l = line.strip();
                int eq = l.indexOf('=');
                if (l.isEmpty() || l.startsWith("#") || eq <= 0) {
                    continue;
                }
                String key = l.substring(0, eq).strip().toLowerCase(java.util.Locale.ROOT);
                if (KEYS.contains(key)) {
                    v.put(key, l.substring(eq + 1).strip());
                }
            }
        } catch (IOException e) {
            return Map.of();
        }
        return v;
    }

    /**
     * Whether {@code command} talks to a default node: it takes {@link PeerOptions} (every command that
     * does — ls, read, write, sub, tap, record, bridge — gets the same defaults; host's and board's own
     * {@code --peer} are not PeerOptions).
     */
    private static boolean talksToANode(CommandLine.Model.CommandSpec command) {
        for (CommandLine.Model.CommandSpec mixin : command.mixins().values()) {
            if (mixin.userObject() instanceof PeerOptions) {
                return true;
            }
        }
        return false;
    }

    /** Where the config file is looked for (named in the "no peer" message). */
    String source() {
        return source;
    }

    @Override
    public String defaultValue(CommandLine.Model.ArgSpec arg) {
        if (!(arg instanceof CommandLine.Model.OptionSpec o) || arg.command() == null || !talksToANode(arg.command())) {
            return null;
        }
        String name = o.longestName();
        return name.startsWith("--") ? values.get(name.substring(2)) : null;
    }
}
