/**
 * The UDP link with DTLS 1.2: {@link io.spectrum.link.dtls.DtlsLink} (one DTLS record per libtracer
 * frame, the JDK's {@code SSLEngine} on the link's own thread, frames handed to the node through
 * preallocated rings), the node's credentials ({@link io.spectrum.link.dtls.DtlsCredentials}: key,
 * certificate, the fleet CA as the one trust anchor, the revocation list), the trust manager that
 * refuses other CAs and revoked serials ({@link io.spectrum.link.dtls.PeerRefusal} says why) and the
 * PEM reader and writer ({@link io.spectrum.link.dtls.Pem}). Implements core-narrow's {@code
 * io.spectrum.link} contract and reuses {@code link-udp}'s configuration; depends on no node and no
 * WIDE-core class, and on no cryptography of its own (JDK only here). See {@code docs/links.md},
 * "DTLS on the UDP link", and {@code docs/security.md}.
 */
package io.spectrum.link.dtls;
