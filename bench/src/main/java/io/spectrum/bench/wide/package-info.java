/**
 * Benchmarks of the WIDE core: fan-out and vertex scale (JMH and plain {@code main}s), the host
 * bus state machine alone (module bus), and a slow subscriber on a {@code QueuedLink}. They use core-wide and the bus;
 * see docs/benchmarks.md.
 */
package io.spectrum.bench.wide;
