/**
 * The WIDE (host-scale) node: {@link io.spectrum.wide.WideNode}, the {@code Node} API of core-narrow's
 * NARROW node over tables that grow up to their ceilings instead of pools sized once, and
 * {@link io.spectrum.wide.WidePeer}, an identified in-process caller. It builds on core-narrow's
 * wire, node API and time packages and serves any {@code Link}; it does no I/O and starts no thread
 * of its own (the caller's thread polls it). The queued link is in {@code io.spectrum.wide.link}; the
 * host bus is a module of its own (bus, docs/bus.md), which uses {@link io.spectrum.wide.AnonymousIds}. Semantics shared with the NARROW node are in
 * docs/node.md; how the host runs it is in docs/host.md.
 */
package io.spectrum.wide;
