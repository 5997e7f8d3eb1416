/**
 * The host product: {@link io.spectrum.host.HostConfig} (everything a host runs with, checked
 * before anything opens), {@link io.spectrum.host.HostFile} (the same keys from a YAML host file)
 * and {@link io.spectrum.host.Host}, which opens the board links, the client listener, the
 * dashboard, the host bus and the MQTT bridge in that order and stops them again. It assembles the
 * runtime, view, bus and bridge parts and owns no protocol rule of its own; the {@code cli} module
 * only turns options into a configuration and calls it. See docs/host.md.
 */
package io.spectrum.host;
