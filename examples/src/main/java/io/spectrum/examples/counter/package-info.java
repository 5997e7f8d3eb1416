/**
 * A board app example: {@link io.spectrum.examples.counter.EdgeCounter} counts a GPIO input's edges
 * on pi4j's thread and has the node's loop publish the total. It uses only the board app API
 * ({@code io.spectrum.board.app}) and pi4j, and runs from a board file's {@code apps:} list. See
 * docs/board.md, "The two examples".
 */
package io.spectrum.examples.counter;
