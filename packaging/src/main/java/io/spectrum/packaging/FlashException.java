package io.spectrum.packaging;

/** A flash that cannot go on, with the message that tells the user what to do and the exit code. */
public final class FlashException extends Exception {
    /** The user must change something (arguments, mount, access). */
    public static final int USAGE = 2;
    /** Something failed on the way (I/O, ssh, the board). */
    public static final int FAILED = 1;

    private final int exitCode;

    /**
     * A flash failure exiting with {@code exitCode} ({@link #USAGE} or {@link #FAILED}); {@code message} says what to
     * do.
     */
    public FlashException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    /** The process exit code: {@link #USAGE} (2) or {@link #FAILED} (1). */
    public int exitCode() {
        return exitCode;
    }
}
