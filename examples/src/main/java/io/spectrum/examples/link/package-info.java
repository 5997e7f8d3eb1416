/**
 * The link factory example: {@link io.spectrum.examples.link.LinkByUri} opens a UDP listener and a
 * dialer by URI and sends one frame each way (docs/links.md, "Links by URI"). See examples/README.md.
 */
package io.spectrum.examples.link;
