package io.spectrum.runtime;

import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The one YAML reading rule of Spectrum's files (board files, host files): strict (no duplicate
 * keys, few aliases), every problem one line with the file's line number, in the caller's own error
 * type. The callers walk the node tree themselves, each with its own keys.
 */
public final class YamlFile {
    /** The caller's error for a problem at a line (1-based; 0 when unknown). */
    @FunctionalInterface
    public interface LineError<E extends Exception> {
        /** The error for {@code problem} at {@code line}. */
        E at(int line, String problem);
    }

    /** The caller's error for a problem with a key (the caller knows its line). */
    @FunctionalInterface
    public interface KeyError<E extends Exception> {
        /** The error for {@code problem} with {@code key}. */
        E at(String key, String problem);
    }

    private YamlFile() {
    }

    /**
     * The node tree of {@code text} (named {@code name} in messages).
     *
     * @param emptyProblem what to say of a file with nothing in it
     * @throws E not valid YAML, or empty
     */
    public static <E extends Exception> Node compose(String name, String text, String emptyProblem, LineError<E> error)
            throws E {
        try {
            LoadSettings settings = LoadSettings.builder().setLabel(name).setAllowDuplicateKeys(false)
                    .setMaxAliasesForCollections(10).build();
            Optional<Node> n = new org.snakeyaml.engine.v2.api.lowlevel.Compose(settings).composeString(text);
            if (n.isEmpty()) {
                throw error.at(1, emptyProblem);
            }
            return n.get();
        } catch (MarkedYamlEngineException e) {
            int line = e.getProblemMark().map(m -> m.getLine() + 1).orElse(0);
            throw error.at(line, "not valid YAML: " + e.getProblem());
        } catch (YamlEngineException e) {
            throw error.at(0, "not valid YAML: " + e.getMessage().replace('\n', ' '));
        }
    }

    /** {@code key}'s value {@code v} as text values: one value, or a list of single values (none when null). */
    public static <E extends Exception> List<String> texts(Node v, String key, KeyError<E> error) throws E {
        List<String> out = new ArrayList<>();
        if (v == null) {
            return out;
        }
        if (v instanceof ScalarNode s) {
            out.add(s.getValue());
            return out;
        }
        if (!(v instanceof SequenceNode seq)) {
            throw error.at(key, "must be a value or a list of values");
        }
        for (Node n : seq.getValue()) {
            if (!(n instanceof ScalarNode s)) {
                throw error.at(key, "every item must be a single value");
            }
            out.add(s.getValue());
        }
        return out;
    }
}
