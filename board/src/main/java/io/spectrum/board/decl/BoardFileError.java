package io.spectrum.board.decl;

/**
 * A board file that cannot be run, with where and what: {@code FILE:LINE: FIELD: problem} (one line).
 * Refused at start, before anything is declared, opened or served.
 */
public final class BoardFileError extends Exception {
    private final String file;
    private final int line;
    private final String field;
    private final String problem;

    /**
     * A problem at {@code file:line} in {@code field} (empty for the file as a whole), spelled as one line; no stack
     * trace is kept.
     */
    public BoardFileError(String file, int line, String field, String problem) {
        super(file + ":" + line + ": " + (field.isEmpty() ? "" : field + ": ") + problem, null, false, false);
        this.file = file;
        this.line = line;
        this.field = field;
        this.problem = problem;
    }

    /** The board file's path as given. */
    public String file() {
        return file;
    }

    /** 1-based line of the offending key or value. */
    public int line() {
        return line;
    }

    /** Where in the file, e.g. {@code vertices[2].source.pin}; empty for the file as a whole. */
    public String field() {
        return field;
    }

    /** What is wrong, without the place (the message has both). */
    public String problem() {
        return problem;
    }
}
