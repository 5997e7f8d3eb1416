/**
 * The suite's oracle: {@link io.spectrum.hil.oracle.Tlv} (what a board sent, as an immutable tree
 * with its exact bytes) and {@link io.spectrum.hil.oracle.Wire} (the bytes a scenario sends that the
 * client deliberately cannot build, and the exact values it expects back). Both are written on the
 * wire package's decoder and writer, not on an encoder of their own; the suite's independence is
 * in the expected bytes and outcomes. See docs/hil.md and docs/wire.md.
 */
package io.spectrum.hil.oracle;
