/**
 * {@link io.spectrum.wide.link.QueuedLink}: a {@code Link} wrapper that runs another link's I/O on
 * its own thread, with bounded per-peer drop-oldest queues, pooled frames, the slow-consumer
 * disconnect rule ({@link io.spectrum.wide.link.QueuedLinkConfig}) and counters readable from any
 * thread ({@link io.spectrum.wide.link.QueuedLinkStats}). It depends only on core-narrow's link,
 * wire and time APIs, agrona and jctools; it knows no node and no concrete link. How the host
 * wraps its board and client links is in docs/host.md; the links themselves are in docs/links.md.
 */
package io.spectrum.wide.link;
