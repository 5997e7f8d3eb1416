/**
 * The NARROW node: {@link io.spectrum.node.NarrowNode} (the facade), the wiring that builds its parts
 * once ({@code NodeParts}), its {@code FwdStore} over its tables ({@code NarrowStore}), and
 * {@link io.spectrum.node.ServingNode}, what both cores offer a process that serves links. The parts
 * live in subpackages whose dependencies point one way: {@code node} uses {@code topic} (topic
 * semantics), which uses {@code table} (the fixed tables), and every one of them uses {@code fwd}
 * (the FWD side shared with core-wide). Return values follow the one convention of the
 * {@code io.spectrum.node.api} package: a status is a WireError code, a quantity is {@code >= 0} or a
 * negated code, converted only through {@link io.spectrum.node.api.NodeResult}.
 */
package io.spectrum.node;
