/**
 * The host's Prometheus exposition: {@code HostMetrics} maps the host's snapshot (numeric vertices,
 * links, the node's tables) and the bridge and bus views to Prometheus metric families through the
 * official client library, and {@code MetricsServer} serves them on a read-only listener of its own.
 * The only package of the project that uses {@code io.prometheus} (held by {@code ModuleGraphTest});
 * see docs/host.md, "Metrics".
 */
package io.spectrum.host.metrics;
