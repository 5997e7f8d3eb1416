/**
 * The serial link: {@link io.spectrum.link.serial.SerialLink} carries libtracer frames over a UART
 * with Spectrum's private framing (COBS with a CRC-32C, {@link io.spectrum.link.serial.CobsFramer}
 * and {@link io.spectrum.link.serial.CobsDeframer}), reopens a port that went away, and queues sends
 * so control frames yield to data. The byte pipe beneath it is {@link
 * io.spectrum.link.serial.SerialPortIo}: a real port through jSerialComm or an in-memory one for
 * tests. Implements core-narrow's {@code io.spectrum.link} contract with its liveness and counter
 * helpers, one peer (handle 0, the far end of the wire); depends on no node and no WIDE-core class.
 * Allocation-free per frame after construction; sends answer a {@link io.spectrum.wire.WireError}
 * status. The framing, receiver rules and port life cycle are in {@code docs/links.md}, "Serial
 * framing".
 */
package io.spectrum.link.serial;
