/**
 * The board app API: a {@link io.spectrum.board.app.BoardApp} declares vertices
 * ({@link io.spectrum.board.app.AppVertex}), publishes, hears peers' writes and schedules work
 * through its {@link io.spectrum.board.app.BoardContext}, and {@link io.spectrum.board.app.AppHost}
 * runs apps on the node's loop, the only thread that touches the node (other threads raise a
 * {@link io.spectrum.board.app.Signal}). It depends on core-narrow's node API only, never on a
 * board file or a pin. See docs/board.md, "Board apps".
 */
package io.spectrum.board.app;
