/**
 * A null-modem pair of pseudo-terminals in this JVM, for the demo and the emulated HIL board: {@link
 * io.spectrum.link.serial.pty.PtyPair} links two raw pty devices and relays bytes between them,
 * through libc over JNA (Linux only). JNA is optional for link-serial, so only users of this package
 * (cli, hw-tests) carry it; the serial link itself and the board bundle never load it. Depends on
 * nothing else of Spectrum. See {@code docs/links.md} and {@code docs/hil.md}.
 */
package io.spectrum.link.serial.pty;
