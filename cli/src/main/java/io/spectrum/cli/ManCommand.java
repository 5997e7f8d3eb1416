package io.spectrum.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code spectrum man}: prints the spectrum(1) man page (roff), generated from the same picocli model
 * as {@code --help}, so it never drifts from the options. {@code spectrum man | man -l -} reads it.
 */
@Command(name = "man", mixinStandardHelpOptions = true,
        description = {"Print the spectrum(1) manual page (roff), generated from the commands' options.",
                "",
                "Example: spectrum man | man -l -",
                "         spectrum man > ~/.local/share/man/man1/spectrum.1", ""})
public final class ManCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        out.print(page(spec.root()));
        out.flush();
        return 0;
    }

    /** The whole page: the root command, then a subsection per subcommand. */
    static String page(CommandSpec root) {
        StringBuilder b = new StringBuilder();
        String version = root.version().length > 0 ? root.version()[0] : "spectrum";
        b.append(".TH SPECTRUM 1 \"\" \"").append(esc(version)).append("\" \"Spectrum manual\"\n");
        b.append(".SH NAME\nspectrum \\- ").append(esc(first(root.usageMessage().description()))).append('\n');
        b.append(".SH SYNOPSIS\n.B spectrum\nCOMMAND [OPTIONS] [ARGS]\n");
        b.append(".SH DESCRIPTION\n");
        paragraphs(b, root.usageMessage().footer());
        b.append(".SH GLOBAL OPTIONS\n");
        options(b, root);
        b.append(".SH COMMANDS\n");
        for (Map.Entry<String, CommandLine> e : root.subcommands().entrySet()) {
            CommandSpec sub = e.getValue().getCommandSpec();
            if (!sub.name().equals(e.getKey()) || sub.name().equals("help")) {
                continue; // an alias, or the help command
            }
            b.append(".SS spectrum ").append(esc(sub.name())).append('\n');
            b.append(".nf\n").append(esc(e.getValue().getHelp().synopsis(0).strip())).append("\n.fi\n");
            paragraphs(b, sub.usageMessage().description());
            positionals(b, sub);
            options(b, sub);
            exitCodes(b, sub);
        }
        b.append(".SH EXIT STATUS\n");
        exitCodes(b, root);
        b.append(".SH ENVIRONMENT\n");
        b.append(".TP\n.B SPECTRUM_PEER\nDefault for --peer of ls, read, write, sub, tap, record and bridge.\n");
        b.append(".TP\n.B SPECTRUM_TIMEOUT, SPECTRUM_FORMAT\nDefaults for --timeout and --format of those commands.\n");
        b.append(".TP\n.B SPECTRUM_CONFIG\nThe config file to read instead of the one below.\n");
        b.append(".SH FILES\n.TP\n.I ~/.config/spectrum/config\n")
                .append("KEY=value lines: peer, timeout, format (the environment wins; an option wins over both).\n");
        return b.toString();
    }

    private static void options(StringBuilder b, CommandSpec c) {
        for (OptionSpec o : c.options()) {
            if (o.hidden()) {
                continue;
            }
            b.append(".TP\n\\fB").append(esc(String.join(", ", o.names()))).append("\\fR");
            if (o.arity().max() > 0) {
                b.append(" \\fI").append(esc(o.paramLabel())).append("\\fR");
            }
            b.append('\n').append(esc(String.join(" ", o.description()).replace("${DEFAULT-VALUE}",
                    String.valueOf(o.defaultValue())))).append('\n');
        }
    }

    private static void positionals(StringBuilder b, CommandSpec c) {
        for (PositionalParamSpec p : c.positionalParameters()) {
            if (p.hidden()) {
                continue;
            }
            b.append(".TP\n\\fI").append(esc(p.paramLabel())).append("\\fR\n")
                    .append(esc(String.join(" ", p.description()))).append('\n');
        }
    }

    private static void exitCodes(StringBuilder b, CommandSpec c) {
        for (Map.Entry<String, String> e : c.usageMessage().exitCodeList().entrySet()) {
            b.append(".TP\n.B ").append(esc(e.getKey().strip())).append('\n').append(esc(e.getValue())).append('\n');
        }
    }

    private static void paragraphs(StringBuilder b, String[] lines) {
        for (String l : lines) {
            if (l.isBlank()) {
                continue;
            }
            b.append(".PP\n").append(esc(l.strip())).append('\n');
        }
    }

    private static String first(String[] lines) {
        return lines.length == 0 ? "" : lines[0];
    }

    /** Text safe in roff: backslashes and hyphens escaped, no line starting with a control character. */
    static String esc(String s) {
        String e = s.replace("\\", "\\e").replace("-", "\\-").replace("%n", " ");
        return e.startsWith(".") || e.startsWith("'") ? "\\&" + e : e;
    }
}
