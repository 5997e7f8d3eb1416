/**
 * The NARROW node: {@link io.spectrum.node.NarrowNode} (the facade) over package-private parts
 * built once by {@code NodeParts}. The tables ({@code VertexTable}, {@code SlotTable}) keep their
 * columns private behind named accessors and mutators. Return values follow the one convention of
 * the {@code io.spectrum.node.api} package: a status is a WireError code, a quantity is {@code >= 0}
 * or a negated code, converted only through {@link io.spectrum.node.api.NodeResult}.
 */
package io.spectrum.node;
