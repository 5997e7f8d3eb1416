/**
 * The {@code spectrum} command line (picocli): {@link io.spectrum.cli.SpectrumCommand} and one class
 * per subcommand, with the behaviour every command shares (a usage error is one line and a hint,
 * an internal error one line and exit 3, defaults from the environment and the config file). A
 * command only turns options into calls of the host, board, client, bridge, packaging and HIL
 * modules and prints their answers; no protocol rule lives here. The option groups the commands share
 * live in {@code io.spectrum.cli.options} and the printers in {@code io.spectrum.cli.output}; the
 * dependencies point that way only. See docs/host.md, "Client commands".
 */
package io.spectrum.cli;
