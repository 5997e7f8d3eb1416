/**
 * The one vocabulary of bounded resources: {@link io.spectrum.stats.BoundedResource} (ceiling, in
 * use, high-water mark, refusals) and its single-writer, allocation-free bookkeeping {@link
 * io.spectrum.stats.ResourceCounter}. Node tables, block pools, links and the WIDE core's queues
 * report through it, and {@code /$node/stats} publishes it (see {@code docs/node.md}, "Pools and
 * their limits"). {@code java.lang} only, depends on no other Spectrum package.
 */
package io.spectrum.stats;
