/**
 * FWD forwarding between mounted links, as a libtracer router does: the {@link
 * io.spectrum.node.route.MountTable} of runs and the (link, peer) each names, and the {@link
 * io.spectrum.node.route.FwdRouter} that strips and prepends runs and forwards, or refuses with a
 * typed ERROR answer. Depends on {@code io.spectrum.wire} (it rewrites through {@code FwdRewrite}),
 * {@code io.spectrum.link} and {@code io.spectrum.stats}; the node calls it before its terminus, and
 * it never calls back into the node. {@code java.lang} only, allocation-free per frame,
 * single-threaded like the node. The rules are in {@code docs/routing.md}.
 */
package io.spectrum.node.route;
