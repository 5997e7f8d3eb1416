/**
 * The link contract both cores and every transport share: {@link io.spectrum.link.Link} (whole
 * libtracer frames to and from small-int peer handles), its callbacks ({@link
 * io.spectrum.link.FrameHandler}, {@link io.spectrum.link.PeerListener}, {@link
 * io.spectrum.link.LivenessProbe}), and the helpers every link reuses rather than copies: the outer
 * frame check ({@link io.spectrum.link.FrameShape}), peer handles with generations ({@link
 * io.spectrum.link.PeerHandles}), the liveness rules ({@link io.spectrum.link.PeerLiveness}) and the
 * counters: a link's own, read through {@link io.spectrum.link.LinkStats} and written only by the
 * link through its {@link io.spectrum.link.LinkCounters}, and the node's about a link,
 * {@link io.spectrum.link.NodeLinkStats}. Part of the NARROW core: {@code java.lang} and
 * {@code io.spectrum.wire} only, allocation-free after construction; sends answer a {@link
 * io.spectrum.wire.WireError} status. The transports themselves live in their own modules
 * ({@code link-udp}, {@code link-serial}, {@code link-local}, {@code link-dtls}); see {@code
 * docs/links.md}.
 */
package io.spectrum.link;
