/**
 * Harnesses of the host bus over its real transports: artifact handover through the file store
 * against a Unix socket, end-to-end handover between two bus clients, RPC round trips and what a
 * seal costs other clients. Each is a {@code main} taking {@code key=value} arguments that prints
 * its figures; they use the bus module's server and the client's {@code BusClient} and belong to no product
 * code. Figures and commands are in docs/benchmarks.md.
 */
package io.spectrum.bench.bus;
