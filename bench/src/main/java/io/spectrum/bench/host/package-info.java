/**
 * Host-scale harnesses: fan-out to thousands of subscribers, many emulated boards, the host
 * against Mosquitto with its UDP floor, a slow subscriber among many, and a bounded soak under
 * hostile clients, plus the helper processes they start ({@link io.spectrum.bench.host.BenchHost},
 * {@link io.spectrum.bench.host.UdpRelay}). {@link io.spectrum.bench.host.HostCore} is the one place
 * that picks the NARROW or WIDE core. Plain {@code main}s with {@code key=value} arguments; figures
 * and commands in docs/benchmarks.md.
 */
package io.spectrum.bench.host;
