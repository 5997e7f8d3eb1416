/**
 * The one client of a Spectrum or plain libtracer v1 node: {@link io.spectrum.client.PeerClient}
 * sends FWD requests (READ, WRITE, AWAIT, appends to {@code :subscribers[]}) over a
 * {@link io.spectrum.client.Transport} (a link's peer, or a local node's owner door), matches
 * answers by reply route and hands refusals back as typed {@link io.spectrum.client.Reply} codes,
 * never exceptions. Around it: held subscriptions re-verified each liveness period, a tree walk,
 * and {@link io.spectrum.client.ValueFormat}, the one place that turns a value and its declaration
 * into text and numbers. Encoding and parsing are core-narrow's wire package's; nothing here knows
 * a host or a command line. See docs/host.md, "Client commands", and docs/extensions.md.
 */
package io.spectrum.client;
