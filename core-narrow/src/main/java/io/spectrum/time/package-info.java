/**
 * Injected time: {@link io.spectrum.time.Clock} (monotonic and epoch nanoseconds) and {@link
 * io.spectrum.time.Sleeper}, with the real {@link io.spectrum.time.SystemClock} and the test {@link
 * io.spectrum.time.ManualClock}. Every grace period, purge, liveness timeout and backoff in both
 * cores reads its time here, so tests advance time instead of sleeping; {@code SystemClock} is the
 * one place the system time is read outside the idle strategies. {@code java.lang} only, depends on
 * no other Spectrum package.
 */
package io.spectrum.time;
