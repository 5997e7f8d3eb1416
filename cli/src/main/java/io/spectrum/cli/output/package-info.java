/**
 * How the {@code spectrum} commands print: values and refusals as text, JSON lines or CSV
 * ({@link io.spectrum.cli.output.OutputFormat}), frames as a TLV tree, field answers, bus
 * artifact references and the host's board states. A printer formats what it is given; it knows
 * neither the commands nor their options.
 */
package io.spectrum.cli.output;
