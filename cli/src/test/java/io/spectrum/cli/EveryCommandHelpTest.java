package io.spectrum.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code --help} and {@code -h} work on every command and subcommand, at any depth. */
class EveryCommandHelpTest {
    @Test
    void everySubcommandAnswersHelpWithItsUsage() {
        List<List<String>> commands = new ArrayList<>();
        collect(SpectrumCommand.commandLine(Defaults.none()), new ArrayList<>(), commands);
        assertTrue(commands.size() > 20, "found " + commands.size() + " commands");
        assertTrue(commands.contains(List.of("keys", "init")), "keys init is among them: " + commands);
        for (List<String> c : commands) {
            for (String flag : new String[] {"--help", "-h"}) {
                List<String> args = new ArrayList<>(c);
                args.add(flag);
                Cli.Run r = Cli.run(args.toArray(String[]::new));
                assertEquals(0, r.code(), String.join(" ", args) + ": " + r.all());
                String usage = "Usage: spectrum " + String.join(" ", c);
                assertTrue(c.equals(List.of("help")) ? r.out().contains(usage) : r.out().startsWith(usage),
                        String.join(" ", args) + ": " + r.out());
                assertEquals("", r.err(), String.join(" ", args));
            }
        }
    }

    private static void collect(CommandLine cl, List<String> prefix, List<List<String>> into) {
        for (var e : cl.getSubcommands().entrySet()) {
            if (!e.getValue().getCommandName().equals(e.getKey())) {
                continue; // an alias
            }
            List<String> name = new ArrayList<>(prefix);
            name.add(e.getKey());
            into.add(name);
            collect(e.getValue(), name, into);
        }
    }
}
