package io.spectrum.cli.output;

/** The output formats of the client commands' {@code --format}: text, JSON lines, or CSV with a header line. */
public enum OutputFormat {
    /** What people read (the default). */
    text,
    /** One JSON object per line. */
    json,
    /** Comma-separated columns with a header line. */
    csv
}
