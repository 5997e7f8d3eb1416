package io.spectrum.board.io;

/**
 * Reports a source's failures once, until it works again, so a loose sensor does not flood the log:
 * {@code board: PATH: SOURCE failed: why (reported once until it works again)}, then
 * {@code board: PATH: SOURCE works again}.
 */
final class FailureReport {
    private boolean failing;

    void failed(Object path, String source, String why) {
        if (!failing) {
            failing = true;
            System.err.println("board: " + path + ": " + source + " failed: " + why + " (reported once until it works again)");
        }
    }

    void worked(Object path, String source) {
        if (failing) {
            failing = false;
            System.err.println("board: " + path + ": " + source + " works again");
        }
    }
}
