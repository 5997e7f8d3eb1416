/**
 * A board app example: {@link io.spectrum.examples.thermostat.Thermostat} reads a 1-Wire sensor,
 * drives a heating relay with a setpoint and hysteresis the host may write, and marks its
 * temperature stale with the reason when the sensor cannot be read. It uses only the board app API
 * and the board's 1-Wire reader, and runs from a board file's {@code apps:} list. See docs/board.md,
 * "The two examples".
 */
package io.spectrum.examples.thermostat;
