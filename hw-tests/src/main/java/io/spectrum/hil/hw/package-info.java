/**
 * Board targets beyond a plain serial port: the emulated board (a separate {@code spectrum board}
 * process behind a pseudo-terminal pair, optionally on an ARM runtime under qemu-user), a real
 * board named by system properties, and a pi4j reset line. Process launching and pi4j live here so
 * the suite's core stays free of them. See docs/hil.md, "The emulated board".
 */
package io.spectrum.hil.hw;
