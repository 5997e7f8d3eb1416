/**
 * {@code spectrum board}: {@link io.spectrum.board.Board}, a NARROW node on one or more links running
 * a {@link io.spectrum.board.app.BoardProgram} (by default its board file's vertices and apps, without
 * one the demo board), and {@link io.spectrum.board.BoardMain}, its command line. It builds on
 * core-narrow's node and the runtime module's loop and link settings; what a board declares is
 * {@code io.spectrum.board.decl}'s, how it reaches pins and sensors {@code io.spectrum.board.io}'s.
 * See docs/board.md.
 */
package io.spectrum.board;
