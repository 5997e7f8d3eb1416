/**
 * The conformance vectors and their runner: {@link io.spectrum.vectors.VectorLoader} reads the
 * upstream libtracer v1 set and Spectrum's own set (classpath resources {@code libtracer-v1/} and
 * {@code spectrum-v1/}, or any directory), and {@link io.spectrum.vectors.VectorRunner} checks each
 * {@link io.spectrum.vectors.Vector} against core-narrow's codec (decode, compare the expected
 * structure, re-encode byte for byte, or refuse with the expected error) and prints TAP. Depends on
 * {@code io.spectrum.wire} and Jackson for the expected JSON; nothing in the cores depends on it.
 * Tests and tools only, allocation is not a concern here. The codec is described in {@code
 * docs/wire.md}; every vector of a Spectrum extension is listed in {@code docs/extensions.md}.
 */
package io.spectrum.vectors;
