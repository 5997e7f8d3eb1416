/**
 * The fleet's certificate authority as a directory of PEM files: {@link
 * io.spectrum.link.dtls.keys.FleetCa} creates the CA, issues node keys and certificates and writes
 * the revocation list ({@code spectrum keys} drives it on the operator's machine; nodes only read
 * the files, through {@code io.spectrum.link.dtls.DtlsCredentials}). Uses Bouncy Castle's PKIX
 * builders and the JDK's key generation and signing, and the parent package's file names and PEM
 * form; nothing else of Spectrum. See {@code docs/security.md}.
 */
package io.spectrum.link.dtls.keys;
