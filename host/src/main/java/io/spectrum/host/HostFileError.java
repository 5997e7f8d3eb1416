package io.spectrum.host;

/**
 * A host file that cannot be run, with where and what: {@code FILE:LINE: KEY: problem} (one line).
 * Refused at start, before anything is opened.
 */
public final class HostFileError extends Exception {
    private final String file;
    private final int line;
    private final String key;

    /**
     * A problem at {@code file:line} in {@code key} (empty for the file as a whole), spelled as one line; no stack
     * trace is kept.
     */
    public HostFileError(String file, int line, String key, String problem) {
        super(file + ":" + line + ": " + (key.isEmpty() ? "" : key + ": ") + problem, null, false, false);
        this.file = file;
        this.line = line;
        this.key = key;
    }

    /** The host file's path as given. */
    public String file() {
        return file;
    }

    /** 1-based line of the offending key or value (0: the file as a whole). */
    public int line() {
        return line;
    }

    /** Where in the file, e.g. {@code mounts[1].link}; empty for the file as a whole. */
    public String key() {
        return key;
    }
}
