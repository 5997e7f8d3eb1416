/**
 * The node API: {@link io.spectrum.node.api.Node}, its configuration, paths, subscriptions and the
 * read-only views listeners get.
 *
 * <h2>Return convention</h2>
 *
 * <p>Every {@code int} a node answers (this API, {@code io.spectrum.node.NarrowNode} and its remote
 * client, and the node's internal parts alike) has one of two shapes, and each method's Javadoc says
 * which:
 *
 * <ul>
 *   <li><b>A status</b> ({@code write}, {@code clear}, {@code attach}, the {@code Subscription}
 *       toggles, ...): a {@link io.spectrum.wire.WireError} code, {@code OK} (0) on success, a
 *       positive code for the refusal.
 *   <li><b>A quantity</b> (a length copied, a handle, a vertex id): the quantity, {@code >= 0}, or
 *       the refusal as a negated {@link io.spectrum.wire.WireError} code, {@code < 0} (the same
 *       shape as the codec's {@code SubscriberRenderer.render}).
 * </ul>
 *
 * <p>The two meet in one place: {@link io.spectrum.node.api.NodeResult} turns a code into a
 * quantity's refusal ({@link io.spectrum.node.api.NodeResult#refusal}) and a quantity into a status
 * ({@link io.spectrum.node.api.NodeResult#code}); nothing else negates a code. No method answers a
 * status on one path and a quantity on another, and no call throws on a refusal: exceptions are for
 * configuration ({@link io.spectrum.node.api.NodeConfig.Builder#build()}) and programming errors.
 */
package io.spectrum.node.api;
