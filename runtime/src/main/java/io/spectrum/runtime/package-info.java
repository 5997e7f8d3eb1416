/**
 * How a node process lives, shared by the board and the host: {@link io.spectrum.runtime.NodeLoop}
 * drives one node (either core) on its own thread, the only thread that touches it, with
 * {@link io.spectrum.runtime.NodeAgent}'s duty cycle and {@link io.spectrum.runtime.CapsProbe}'s
 * liveness pings and slot checks; {@link io.spectrum.runtime.LinkSpec} and
 * {@link io.spectrum.runtime.LinkSettings} open the serial, UDP and DTLS links from the shared
 * options; {@link io.spectrum.runtime.NodeProcess} runs until stopped; {@link io.spectrum.runtime.YamlFile}
 * is the one YAML reading rule of the board and host files. It depends on core-narrow and the link
 * modules, never on the host, the board or the command line. See docs/node.md, "The node loop",
 * and docs/links.md.
 */
package io.spectrum.runtime;
