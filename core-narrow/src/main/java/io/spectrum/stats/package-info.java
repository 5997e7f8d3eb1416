/**
 * The one counter type of bounded resources: {@link io.spectrum.stats.BoundedResource}, the read-only
 * view (ceiling, in use, high-water mark, refused, dropped, each a {@code long}), its single-writer,
 * allocation-free bookkeeping {@link io.spectrum.stats.ResourceCounter}, and
 * {@link io.spectrum.stats.CounterNames}, the one list of counter names that {@code /$node/stats},
 * the dashboard and {@code /metrics} share. Node tables, block pools, links, the WIDE core's queues
 * and the bus's artifact store report through it (see {@code docs/node.md}, "Counters").
 * {@code java.lang} only, depends on no other Spectrum package.
 */
package io.spectrum.stats;
