/**
 * JMH benchmarks of the NARROW node (fan-out, RFC-0035 toggles, forward hops, wire requests,
 * write-to-delivery) and {@link io.spectrum.bench.node.NodeCpuTime}, their thread-CPU-time
 * companion for a loaded machine. They use core-narrow only; see docs/node.md and docs/benchmarks.md.
 */
package io.spectrum.bench.node;
