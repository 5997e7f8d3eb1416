/**
 * The NARROW node's fixed memory: {@link io.spectrum.node.pool.BlockPool}, one byte arena sized at
 * construction and carved into power-of-two blocks, where vertex values and stored records live. An
 * allocation that does not fit is refused ({@code -1}), never grown, and counted through {@code
 * io.spectrum.stats}. {@code java.lang} only, allocation-free after construction, single-threaded
 * like the node. Pool sizes and limits are described in {@code docs/node.md}, "Pools and their
 * limits".
 */
package io.spectrum.node.pool;
