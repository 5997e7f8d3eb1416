package io.spectrum.link;

/**
 * How a link tells the node loop that input is waiting, so the loop can sleep until then instead of
 * polling on a timer. The loop hands one to every link it drives ({@link Link#setReadiness}).
 *
 * <p>A link whose input comes through a NIO channel hands the channel to {@link #watch}, and the
 * loop's selector watches it; a link whose input arrives on another thread (a serial driver's event
 * thread) calls {@link #wake} from there. Both are thread-safe and allocation-free after setup.
 */
public interface Readiness {
    /**
     * Asks the loop to wake when {@code selectableChannel} is readable. The argument is a
     * non-blocking {@code java.nio.channels.SelectableChannel}; it is typed {@code Object} because
     * the link SPI is java.lang only.
     *
     * @return true when the loop watches it; false when it cannot (the link must then {@link #wake})
     */
    boolean watch(Object selectableChannel);

    /** Input is waiting on a link: wakes the loop if it is blocked (callable from any thread). */
    void wake();
}
