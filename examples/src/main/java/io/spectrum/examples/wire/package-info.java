/**
 * The wire codec example: {@link io.spectrum.examples.wire.DecodeFrame} decodes a libtracer v1
 * frame with the codec's flyweight views (docs/wire.md). See examples/README.md.
 */
package io.spectrum.examples.wire;
