/**
 * The hardware-in-the-loop conformance suite's core: {@link io.spectrum.hil.Scenario} and
 * {@link io.spectrum.hil.HilSuite} (run in order, each judged pass / fail / skip the same way by
 * JUnit and by {@code spectrum hil}), {@link io.spectrum.hil.HilContext} (the one client and the
 * host node on the board link, with the frame and delivery logs), the {@link io.spectrum.hil.BoardTarget}
 * abstraction with its serial implementation, {@link io.spectrum.hil.Check} and the Markdown
 * {@link io.spectrum.hil.ConformanceReport}. It talks to a board only through the project's links
 * and client; it never builds frames itself (that is {@code io.spectrum.hil.oracle}). See docs/hil.md.
 */
package io.spectrum.hil;
