package io.spectrum.cli;

import picocli.CommandLine.Option;

/** How long a node process ({@code board}, {@code host}) runs: see {@link NodeProcess}. */
public final class RunOptions {
    @Option(names = "--duration", paramLabel = "SECONDS", defaultValue = "0", description = "Stop after this long (0: until Ctrl-C).")
    double duration;

    @Option(names = "--exit-with-stdin", description = "Stop when stdin closes (for a parent process).")
    boolean exitWithStdin;
}
