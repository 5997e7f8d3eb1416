/**
 * The NARROW core's fixed tables: the vertex table, the subscriber slot table and the backfill ring,
 * each parallel primitive arrays sized once and read and written through small named accessors.
 * They hold state and apply no rule of the protocol; the rules live in {@code io.spectrum.node.topic}
 * and {@code io.spectrum.node.fwd}. Slot words use the FWD side's bit layout
 * ({@link io.spectrum.node.fwd.FwdStore}).
 */
package io.spectrum.node.table;
