/**
 * Batched datagram I/O for the UDP link on 64-bit Linux: {@link io.spectrum.link.udp.mmsg.MmsgSocket}
 * receives up to a batch of datagrams with one {@code recvmmsg} and sends a queue of them with one
 * {@code sendmmsg}, through JNA's direct mapping ({@link io.spectrum.link.udp.mmsg.MmsgLibc}) with
 * preallocated native buffers and primitive arguments only, so a call allocates nothing. Depends on
 * JNA and the JDK only; where either JNA or the calls are missing the UDP link keeps its NIO path.
 * See {@code docs/links.md}, "Batched datagram I/O".
 */
package io.spectrum.link.udp.mmsg;
