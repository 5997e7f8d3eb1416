/**
 * The option groups (picocli mixins and argument groups) the {@code spectrum} commands share:
 * {@code --peer}/{@code --timeout}/{@code --format} of the client commands, the broker, MQTT, link,
 * history and bus options, and how long a node process runs. An option group parses and checks its
 * own options (a bad value is a usage error) and hands them on as they are; it runs no command.
 * Uses {@code io.spectrum.cli.output} only, never the commands.
 */
package io.spectrum.cli.options;
