package io.spectrum.cli.options;

import io.spectrum.host.HostConfig;
import io.spectrum.host.history.HistoryServer;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code spectrum host}'s history options (docs/host.md, "History"); the host file's keys are the
 * same names without the dashes.
 */
public final class HistoryOptions {
    @Option(names = "--state-dir", paramLabel = "DIR",
            description = "The host's state directory: its history (history.db) is kept there, so it lasts across restarts.")
    String stateDir;

    @Option(names = "--history", paramLabel = "FILE|URL|none",
            description = "The history file (default: history.db in --state-dir), or a PostgreSQL server several hosts "
                    + "share, postgresql://HOST[:PORT]/DB (rows carry this host's name); none: keep no history.")
    String history;

    @Option(names = "--history-credentials", paramLabel = "FILE",
            description = "The PostgreSQL user and password: lines username=... and password=... (default: $"
                    + HistoryServer.ENV_USERNAME + " / $" + HistoryServer.ENV_PASSWORD + "; never on the command line).")
    Path credentials;

    @Option(names = "--history-include", paramLabel = "GLOB", split = ",",
            description = "Keep only the values of these paths (globs: * one segment, ** any; default: every path).")
    List<String> include = new ArrayList<>();

    @Option(names = "--history-exclude", paramLabel = "GLOB", split = ",",
            description = "Do not keep the values of these paths (wins over --history-include).")
    List<String> exclude = new ArrayList<>();

    @Option(names = "--history-raw", paramLabel = "D", description = "Keep every value for D (default: 7d).")
    String raw;

    @Option(names = "--history-minutes", paramLabel = "D",
            description = "Keep the one-minute min / mean / max / last for D (default: 1y).")
    String minutes;

    @Option(names = "--history-max-bytes", paramLabel = "N", defaultValue = "-1",
            description = "Keep a non-numeric value of at most N bytes (default: 64; bigger ones, blobs, are not kept).")
    int maxBytes;

    /** Hands the history options to the host's configuration as they are (the host checks them). */
    public void into(HostConfig.Builder b) {
        b.stateDir(stateDir).history(history).historyCredentials(credentials).historyInclude(include).historyExclude(exclude).historyRaw(raw)
                .historyMinutes(minutes).historyMaxBytes(maxBytes);
    }
}
