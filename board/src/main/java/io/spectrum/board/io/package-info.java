/**
 * The sources and sinks a board file binds to vertices: GPIO in and out, PWM, I2C registers,
 * 1-Wire sensors, the board's own /sys and /proc metrics, files, commands, fixed text and simulated
 * waves. Each is a {@code Binding} on the board app API; pins go through pi4j (with
 * {@link io.spectrum.board.io.MockPins} to drive the mock platform from another process), and an I2C
 * register read by an SMBus transfer through the kernel's ioctl on the board's own descriptor. A source
 * that cannot read marks its vertex stale with the reason instead of publishing. See docs/board.md,
 * "Sources" and "Sinks".
 */
package io.spectrum.board.io;
