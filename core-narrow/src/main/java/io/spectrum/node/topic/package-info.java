/**
 * The NARROW core's topic semantics over its tables: a vertex's value, sequence, publisher and stale
 * mark ({@link io.spectrum.node.topic.TopicState}), write propagation and delivery
 * ({@link io.spectrum.node.topic.Fanout}), subscriber slot lists
 * ({@link io.spectrum.node.topic.SubscriberSlots}), delivering counts and activity notices
 * ({@link io.spectrum.node.topic.ListenerCounts}) and the in-process subscription handle. Uses the
 * tables in {@code io.spectrum.node.table} and delivers through the shared FWD side in
 * {@code io.spectrum.node.fwd}; knows nothing of the node facade above it.
 */
package io.spectrum.node.topic;
