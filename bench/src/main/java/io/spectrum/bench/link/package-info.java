/**
 * Link harnesses: serial framing (JMH), serial goodput and control load over a paced in-memory
 * line, UDP loopback latency, request rounds and bursts (the JDK channel against batched
 * recvmmsg/sendmmsg), and DTLS against plain UDP. They drive the link
 * modules directly, with no host; see docs/links.md and docs/benchmarks.md.
 */
package io.spectrum.bench.link;
