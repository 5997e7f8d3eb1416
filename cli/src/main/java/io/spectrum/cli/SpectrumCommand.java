package io.spectrum.cli;

import io.spectrum.cli.output.ClientOutput;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;

/**
 * The {@code spectrum} command line. Each subcommand is its own class in this package.
 *
 * <p>{@link #commandLine(Defaults)} builds it with the behaviour every command shares: a usage error
 * is one line plus a hint ({@link #usageError}), an unexpected exception is one line and exit 3 with
 * the stack only under {@code --debug} ({@link #internalError}), and defaults for {@code --peer},
 * {@code --timeout} and {@code --format} come from {@code SPECTRUM_PEER} and the config file
 * ({@link Defaults}).
 */
@Command(name = "spectrum",
        mixinStandardHelpOptions = true,
        versionProvider = SpectrumCommand.Version.class,
        description = "Spectrum: a libtracer v1 publish/subscribe fabric from boards to hosts.",
        footer = {"", "Start with ./spectrum demo (no hardware). More: spectrum COMMAND --help",
                "Defaults for --peer/--timeout/--format: SPECTRUM_PEER, SPECTRUM_TIMEOUT, SPECTRUM_FORMAT or "
                        + "~/.config/spectrum/config (peer=, timeout=, format=).",
                "The host bus commands (call, services, artifact) take --bus from SPECTRUM_BUS."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done", "1:refused by the node, or the peer was lost", "2:bad arguments",
                "3:internal error (please report; --debug shows the stack)"},
        subcommands = {
                CommandLine.HelpCommand.class,
                FlashCommand.class,
                KeysCommand.class,
                LsCommand.class,
                ReadCommand.class,
                WriteCommand.class,
                SubCommand.class,
                RecordCommand.class,
                ReplayCommand.class,
                TapCommand.class,
                DemoCommand.class,
                HostCommand.class,
                HistoryCommand.class,
                BridgeCommand.class,
                CallCommand.class,
                ServicesCommand.class,
                ArtifactCommand.class,
                DecodeCommand.class,
                BoardCommand.class,
                HilCommand.class,
                CompletionCommand.class,
                ManCommand.class,
        })
public final class SpectrumCommand implements Runnable {
    /** Exit code of an unexpected exception. */
    static final int INTERNAL_ERROR = 3;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Option(names = "--debug", scope = CommandLine.ScopeType.INHERIT,
            description = "Print the stack trace of an internal error.")
    boolean debug;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The {@code spectrum} entry point: runs {@link #execute} and exits with its code. */
    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the command line and returns its exit code (tests call this instead of main). */
    public static int execute(String... args) {
        return commandLine(Defaults.fromEnvironment()).execute(args);
    }

    /** The command line with its shared handlers and the defaults {@code defaults}. */
    static CommandLine commandLine(Defaults defaults) {
        CommandLine cl = new CommandLine(new SpectrumCommand());
        helpEverywhere(cl);
        cl.setDefaultValueProvider(defaults);
        cl.setParameterExceptionHandler(SpectrumCommand::usageError);
        cl.setExecutionExceptionHandler((e, line, parsed) -> internalError(e, line, parsed.originalArgs().contains("--debug")));
        return cl;
    }

    /** Every command and subcommand, at any depth, answers {@code --help} and {@code -h} with its usage. */
    private static void helpEverywhere(CommandLine cl) {
        for (CommandLine sub : cl.getSubcommands().values()) {
            if (!sub.getCommandSpec().mixinStandardHelpOptions()) {
                sub.getCommandSpec().mixinStandardHelpOptions(true);
            }
            helpEverywhere(sub);
        }
    }

    /** A usage error: one line naming the command, and how to see its options. Exit 2. */
    static int usageError(CommandLine.ParameterException e, String[] args) {
        CommandLine cl = e.getCommandLine();
        PrintWriter err = cl.getErr();
        String name = cl.getCommandSpec().qualifiedName();
        if (ClientOutput.jsonWanted(args)) {
            err.println(ClientOutput.error("usage", e.getMessage()));
        } else {
            err.println(name + ": " + e.getMessage());
            err.println("Try '" + name + " --help' for more.");
        }
        err.flush();
        return cl.getCommandSpec().exitCodeOnInvalidInput();
    }

    /** Anything a command did not expect: one line (the stack under --debug), exit 3. */
    static int internalError(Exception e, CommandLine cl, boolean debug) {
        PrintWriter err = cl.getErr();
        String msg = e.getMessage() == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": " + e.getMessage();
        err.println("spectrum: internal error: " + msg + " (please report" + (debug ? ")" : "; --debug shows the stack)"));
        if (debug) {
            e.printStackTrace(err);
        }
        err.flush();
        return INTERNAL_ERROR;
    }


    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = SpectrumCommand.class.getPackage().getImplementationVersion();
            return new String[] {"spectrum " + (v == null ? "dev" : v) + " (libtracer protocol v1)"};
        }
    }
}
