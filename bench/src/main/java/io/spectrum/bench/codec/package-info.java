/**
 * The libtracer v1 codec alone: {@link io.spectrum.bench.codec.CodecBench} (JMH: decode and
 * encode round trips of real frames) and {@link io.spectrum.bench.codec.CodecCpuTime}, its
 * thread-CPU-time companion for a loaded machine. Uses only core-narrow's wire package; see
 * docs/benchmarks.md.
 */
package io.spectrum.bench.codec;
