/**
 * The conformance scenarios ({@link io.spectrum.hil.scenario.StandardScenarios} lists them in run
 * order) and the demo vertices they read and write ({@link io.spectrum.hil.scenario.DemoBoard}), so
 * a real board running the stock firmware passes the same suite as the emulated one. Each scenario
 * uses only {@code io.spectrum.hil} and its oracle. docs/hil.md, "Scenarios", says what each checks.
 */
package io.spectrum.hil.scenario;
