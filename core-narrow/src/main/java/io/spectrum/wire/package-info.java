/**
 * The libtracer v1 wire codec and its vocabulary, shared by both cores: the frame decoder and
 * encoder over a caller-owned flat {@link io.spectrum.wire.TlvIndex}, the {@link
 * io.spectrum.wire.TlvWriter}, the type, opt-bit and error registries ({@link
 * io.spectrum.wire.TlvType}, {@link io.spectrum.wire.Opt}, {@link io.spectrum.wire.WireError}), every
 * fixed spelling ({@link io.spectrum.wire.Names}) and the typed read-only views (PATH, FIELD, FWD,
 * SETTINGS, SUBSCRIBER, STATUS, ERROR, PATH_REF) that own each shape's rules. Part of the NARROW core:
 * {@code java.lang} only, depends on no other Spectrum package (node, link and the WIDE core depend on
 * it), allocation-free after construction except the methods whose Javadoc says they allocate (text
 * forms for diagnostics). Nothing throws on bad input: a status is a {@link io.spectrum.wire.WireError}
 * code ({@code OK} = 0, else the positive refusal), a quantity is {@code >= 0} or a negated code, the
 * same convention as {@link io.spectrum.node.api}. The byte-level design and refusal table are in
 * {@code docs/wire.md}; every Spectrum extension byte is in {@code docs/extensions.md}.
 */
package io.spectrum.wire;
