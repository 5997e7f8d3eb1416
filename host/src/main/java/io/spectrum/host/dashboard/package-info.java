/**
 * The web dashboard: {@link io.spectrum.host.dashboard.DashboardServer} serves one static page, a
 * JSON API and a Server-Sent-Events stream of snapshots on 127.0.0.1, and
 * {@link io.spectrum.host.dashboard.SnapshotJson} spells them. It reads the host only through the
 * {@code io.spectrum.host.view} interfaces and must not touch the node or its thread. See
 * docs/host.md, "Dashboard".
 */
package io.spectrum.host.dashboard;
