package io.spectrum.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code spectrum} command line. Each subcommand is its own class in this package. */
@Command(name = "spectrum",
        mixinStandardHelpOptions = true,
        versionProvider = SpectrumCommand.Version.class,
        description = "Spectrum: a libtracer v1 publish/subscribe fabric from boards to hosts.",
        footer = {"", "Start with ./spectrum demo (no hardware). More: spectrum COMMAND --help"},
        subcommands = {
                CommandLine.HelpCommand.class,
                FlashCommand.class,
                LsCommand.class,
                ReadCommand.class,
                WriteCommand.class,
                SubCommand.class,
                RecordCommand.class,
                ReplayCommand.class,
                TapCommand.class,
                DemoCommand.class,
                HostCommand.class,
                DecodeCommand.class,
                BoardCommand.class,
                HilCommand.class,
        })
public final class SpectrumCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the command line and returns its exit code (tests call this instead of main). */
    public static int execute(String... args) {
        return new CommandLine(new SpectrumCommand()).execute(args);
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = SpectrumCommand.class.getPackage().getImplementationVersion();
            return new String[] {"spectrum " + (v == null ? "dev" : v) + " (libtracer protocol v1)"};
        }
    }
}
