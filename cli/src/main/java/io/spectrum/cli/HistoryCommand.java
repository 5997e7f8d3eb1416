package io.spectrum.cli;

import io.spectrum.cli.output.OutputFormat;
import io.spectrum.cli.output.ValuePrinter;
import io.spectrum.host.history.HistoryBucket;
import io.spectrum.host.history.HistoryJson;
import io.spectrum.host.history.HistoryReader;
import io.spectrum.host.history.HistoryServer;
import io.spectrum.host.history.HistorySettings;
import io.spectrum.host.history.HistoryTime;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code spectrum history PATH… --since 1h [--until T] [--every 1m] [--format text|json|csv] --db FILE}:
 * what a host's history store kept (docs/host.md, "History"), read from its file directly (the host
 * need not run; the file is read-only here and SQLite lets the host go on writing). Rows print as
 * every client command prints values ({@link ValuePrinter}, {@link HistoryJson}).
 */
@Command(name = "history", mixinStandardHelpOptions = true,
        description = {"Print what a host's history store kept for some paths: the stored values, or with --every their "
                + "min / mean / max / last per interval, in the vertex's unit.",
                "The store is the host's --history FILE, or history.db in its --state-dir DIR, or its PostgreSQL server "
                        + "(--db postgresql://HOST[:PORT]/DB --host NAME) (docs/host.md, \"History\"). "
                        + "PATH may be a glob: * one segment, ** any (/board1/**).",
                "",
                "Example: spectrum history --state-dir /var/lib/spectrum /board1/sensor/temp --since 1h",
                "         spectrum history --db history.db '/board1/**' --since 7d --every 1h --format csv", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:rows printed", "1:no stored path matches", "2:bad arguments, or no history file there"})
public final class HistoryCommand implements Callable<Integer> {
    static final List<String> ROW_COLUMNS = List.of("ts", "path", "value", "unit", "raw", "seq", "stale", "reason");
    static final List<String> BUCKET_COLUMNS = List.of("ts", "path", "value", "unit", "min", "mean", "max", "last", "n");

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "Vertex paths or globs, e.g. /board1/sensor/temp or '/board1/**'.")
    List<String> paths = new ArrayList<>();

    @Option(names = "--db", paramLabel = "FILE|URL",
            description = "The history file (the host's --history FILE), or the hosts' PostgreSQL server postgresql://HOST[:PORT]/DB.")
    String db;

    @Option(names = "--host", paramLabel = "NAME", defaultValue = "host",
            description = "On a PostgreSQL server: whose rows (the host's name; default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--history-credentials", paramLabel = "FILE",
            description = "The PostgreSQL user and password: lines username=... and password=... (default: $"
                    + HistoryServer.ENV_USERNAME + " / $" + HistoryServer.ENV_PASSWORD + ").")
    Path credentials;

    @Option(names = "--state-dir", paramLabel = "DIR", description = "The host's --state-dir: reads DIR/history.db.")
    Path stateDir;

    @Option(names = "--since", paramLabel = "T", defaultValue = "1h",
            description = "From: a duration back from now (1h, 7d), an ISO-8601 time or epoch ms (default: ${DEFAULT-VALUE}).")
    String since;

    @Option(names = "--until", paramLabel = "T", defaultValue = "now", description = "To, as --since (default: now).")
    String until;

    @Option(names = "--every", paramLabel = "D",
            description = "Downsample: one line per D (30s, 1m, 1h) with min, mean, max, last and n of the numeric values.")
    String every;

    @Option(names = "--json", description = "Print JSON lines (same as --format json).")
    boolean json;

    @Option(names = {"-F", "--format"}, paramLabel = "FORMAT", defaultValue = "text",
            description = "text (default), json (one object per line: ts, path, value, unit, raw, seq, stale, reason; "
                    + "with --every: value (the mean), unit, min, mean, max, last, n) or csv (those columns, a header line first).")
    OutputFormat format;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        CommandLine cl = spec.commandLine();
        if ((db == null) == (stateDir == null)) {
            throw new CommandLine.ParameterException(cl, "give the history file: --db FILE (the host's --history) "
                    + "or --state-dir DIR (the host's, holding " + HistorySettings.FILE_NAME + ")");
        }
        HistorySettings settings;
        try {
            settings = HistoryServer.names(db) ? HistorySettings.of(HistoryServer.parse(db, credentials, System.getenv())).withHost(host)
                    : HistorySettings.of(db != null ? Path.of(db) : stateDir.resolve(HistorySettings.FILE_NAME));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, e.getMessage());
        }
        String file = settings.where() + (settings.server() != null ? " (host " + host + ")" : "");
        long now = System.currentTimeMillis();
        long from;
        long to;
        long everyMs = 0;
        try {
            from = HistoryTime.momentMs(since, now);
            to = HistoryTime.momentMs(until, now) + ("now".equals(until) ? 1 : 0);
            if (every != null) {
                everyMs = HistoryTime.durationMs(every);
            }
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, e.getMessage());
        }
        PrintWriter out = cl.getOut();
        OutputFormat f = json ? OutputFormat.json : format;
        ValuePrinter printer = new ValuePrinter(out, f, everyMs > 0 ? BUCKET_COLUMNS : ROW_COLUMNS);
        try (HistoryReader reader = HistoryReader.open(settings)) {
            List<String> matched;
            try {
                matched = reader.paths(paths);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(cl, e.getMessage());
            }
            if (matched.isEmpty()) {
                cl.getErr().println("spectrum history: " + file + " holds nothing for " + String.join(" ", paths));
                cl.getErr().flush();
                return 1;
            }
            for (String p : matched) {
                if (everyMs > 0) {
                    for (HistoryBucket b : reader.buckets(p, from, to, everyMs)) {
                        printer.print(HistoryJson.bucket(b), HistoryJson.bucketText(b));
                    }
                } else {
                    // streamed: a long range is printed as it is read, never held in memory whole
                    reader.eachRow(p, from, to, Long.MAX_VALUE, r -> printer.print(HistoryJson.row(r), HistoryJson.rowText(r)));
                }
            }
            return 0;
        } catch (SQLException e) {
            cl.getErr().println("spectrum history: cannot read " + file + ": " + firstLine(e.getMessage()));
            cl.getErr().flush();
            return 2;
        }
    }

    private static String firstLine(String s) {
        return s == null ? "" : s.lines().findFirst().orElse("");
    }
}
