/**
 * A board app example without hardware: {@link io.spectrum.examples.app.Countdown} declares its
 * vertices, runs periodic work on the node's loop and hears the host's writes (docs/board.md, "Board
 * apps"). See examples/README.md.
 */
package io.spectrum.examples.app;
