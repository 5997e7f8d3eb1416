/**
 * The board file: {@link io.spectrum.board.decl.BoardFileParser} reads and checks it whole (YAML,
 * every field in docs/board.md; the first problem is a {@link io.spectrum.board.decl.BoardFileError}
 * with its line and field), {@link io.spectrum.board.decl.BoardFile} is the checked result and
 * {@link io.spectrum.board.decl.DeclaredBoard} runs its vertices as an app, so running a file
 * applies all of it or nothing. It turns source and sink entries into {@code io.spectrum.board.io}
 * bindings and uses the runtime module's YAML reader.
 */
package io.spectrum.board.decl;
