package io.spectrum.cli.options;

import picocli.CommandLine.Option;

/** How long a node process ({@code board}, {@code host}) runs: see {@link io.spectrum.runtime.NodeProcess}. */
public final class RunOptions {
    /** {@code --duration}: seconds to run, 0 until Ctrl-C. */
    @Option(names = "--duration", paramLabel = "SECONDS", defaultValue = "0", description = "Stop after this long (0: until Ctrl-C).")
    public double duration;

    /** {@code --exit-with-stdin}: stop when stdin closes. */
    @Option(names = "--exit-with-stdin", description = "Stop when stdin closes (for a parent process).")
    public boolean exitWithStdin;
}
