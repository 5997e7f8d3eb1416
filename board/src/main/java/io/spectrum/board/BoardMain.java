package io.spectrum.board;

import io.spectrum.board.app.BoardProgram;
import io.spectrum.board.decl.BoardFile;
import io.spectrum.board.decl.BoardFileError;
import io.spectrum.board.decl.BoardFileParser;
import io.spectrum.board.decl.BoardSetup;
import io.spectrum.link.Link;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.runtime.LinkNotices;
import io.spectrum.runtime.LinkSettings;
import io.spectrum.runtime.LinkSpec;
import io.spectrum.runtime.NodeProcess;
import io.spectrum.time.SystemClock;

import java.io.IOException;
import java.io.PrintWriter;

/**
 * What a flashed board runs: a {@link Board} declared by a board file ({@code --config FILE}, docs/board.md;
 * without one the shipped demo board) on exactly one link, until stopped. The board
 * bundle carries no command-line library, so the options are parsed here; {@code spectrum board}
 * on a host hands its arguments to the same {@link #run} so both accept the same options.
 *
 * <pre>
 * BoardMain (--udp HOST:PORT | --peer HOST:PORT | --serial DEVICE [--baud N])
 *           [--config FILE] [--app JAR]... [--check] [--name NAME] [--period MS] [--ping MS] [--timeout MS] [--frame BYTES] [--rcvbuf BYTES]
 *           [--dtls-key FILE --dtls-ca FILE | --dtls-keys DIR]
 *           [--duration SECONDS] [--exit-with-stdin] [--help] [--version]
 * </pre>
 * Exit codes: 0 after a normal stop, 2 for a usage error, a board file that cannot be run (one line:
 * {@code board: FILE:LINE: FIELD: problem}; nothing was declared, opened or served) or a link that
 * cannot be opened.
 */
public final class BoardMain {
    static final String USAGE = String.join(System.lineSeparator(),
            "Usage: board (--udp HOST:PORT | --peer HOST:PORT | --serial DEVICE [--baud N]) [options]",
            "Each link option also takes a link URI (docs/links.md): udp://HOST:PORT, dtls://HOST:PORT,",
            "tcp://HOST:PORT, serial:///DEVICE?baud=N.",
            "Run a NARROW board node on one UDP or serial link, its vertices declared by a board file",
            "(docs/board.md); without --config the demo board (/temp, /humidity, /counter, /led,",
            "/name on simulated sources). Paths are the board's own: a host shows /temp as /MOUNT/temp.",
            "      --config FILE        The board file (YAML): vertices with their declarations and their",
            "                           sources or sinks (GPIO, PWM, I2C, 1-Wire, the board itself, a",
            "                           file or a command), and board apps. Refused at start, with the",
            "                           line and field named, if anything in it is wrong.",
            "      --app JAR            A jar holding the board apps the file names (repeatable).",
            "      --check              Check the board file and the --app jars' classes, then exit (0: good).",
            "                           Opens no pin, bus, device, file or command: safe beside a running board.",
            "      --udp HOST:PORT      Bind and listen on UDP (hosts learn us by dialing). A bare :PORT",
            "                           binds 127.0.0.1; 0.0.0.0 exposes the board to every network",
            "                           it is on (a warning says what; docs/security.md).",
            "      --peer HOST:PORT     Dial a UDP listener instead (or the link a URI names).",
            "      --serial DEVICE      Serial device (e.g. /dev/ttyUSB0 or a pty).",
            "      --baud N             Serial baud rate (8N1). Default: 115200.",
            "      --name NAME          Board name (the demo publishes it as /name). Default: the",
            "                           file's name:, else board.",
            "      --period MS          Default period of the file's sources (the demo's: 250).",
            "      --ping MS            Probe a quiet peer after this long. Default: 1000.",
            "      --timeout MS         Report a silent peer down after this long. Default: 5000.",
            "      --frame BYTES        Largest frame on the link (UDP default 65507, serial 4096); the",
            "                           node refuses values that would not fit one frame.",
            "      --rcvbuf BYTES       UDP receive buffer to ask the OS for. Default: 4194304.",
            "      --dtls-key FILE      DTLS on the UDP link: this board's key (its certificate is the",
            "                           .crt beside it; spectrum keys issue NAME makes both).",
            "      --dtls-ca FILE       The fleet CA certificate, the only one trusted (revoked.crl",
            "                           beside it is read at start when present).",
            "      --dtls-keys DIR      Both from a keys directory: DIR/<name>.key, DIR/ca.crt.",
            "      --duration SECONDS   Stop after this long (0: until Ctrl-C). Default: 0.",
            "      --exit-with-stdin    Stop when stdin closes (for a parent process).",
            "  -h, --help               Show this help message and exit.",
            "  -V, --version            Print version information and exit.");

    private String udp;
    private String peer;
    private String serial;
    private int baud = 115200;
    private String name;
    private long periodMillis = -1;
    private String config;
    private final java.util.List<java.nio.file.Path> apps = new java.util.ArrayList<>();
    private boolean check;
    private long pingMillis = LinkSpec.DEFAULT_PING_MILLIS;
    private long timeoutMillis = LinkSpec.DEFAULT_TIMEOUT_MILLIS;
    private int frameBytes;
    private int receiveBuffer = io.spectrum.link.udp.UdpLinkConfig.DEFAULT_RECEIVE_BUFFER;
    private String dtlsKey;
    private String dtlsCa;
    private String dtlsKeys;
    private double durationSeconds;
    private boolean exitWithStdin;
    /** What the board runs instead of the demo vertices (null: the demo), made from its --name. */
    private final java.util.function.Function<String, BoardProgram> program;

    private BoardMain(java.util.function.Function<String, BoardProgram> program) {
        this.program = program;
    }

    /**
     * {@code spectrum board}: runs {@link #run(String[], PrintWriter, PrintWriter)} on the standard streams and exits
     * with its code.
     */
    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        System.exit(run(args, out, err));
    }

    /** Runs a board with {@code args} until it is stopped; returns the process exit code. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        return run(args, out, err, null);
    }

    /**
     * As {@link #run(String[], PrintWriter, PrintWriter)}, the board running {@code program} (made
     * from the board's --name) instead of the demo vertices: the same links, options and exit codes.
     */
    public static int run(String[] args, PrintWriter out, PrintWriter err,
                          java.util.function.Function<String, BoardProgram> program) {
        BoardMain m = new BoardMain(program);
        String problem;
        try {
            problem = m.parse(args, out);
        } catch (NumberFormatException e) {
            problem = "a number was expected: " + e.getMessage();
        }
        if ("".equals(problem)) {
            out.flush();
            return 0; // --help or --version
        }
        if (problem != null) {
            err.println("board: " + problem + " (--help lists the options)");
            err.flush();
            return 2;
        }
        return m.start(out, err);
    }

    /** Null when the options are good, "" after --help/--version, otherwise what is wrong. */
    private String parse(String[] args, PrintWriter out) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) { // --name=value, as picocli accepts
                String[] split = new String[args.length + 1];
                System.arraycopy(args, 0, split, 0, i);
                split[i] = a.substring(0, eq);
                split[i + 1] = a.substring(eq + 1);
                System.arraycopy(args, i + 1, split, i + 2, args.length - i - 1);
                args = split;
                a = args[i];
            }
            switch (a) {
                case "-h", "--help" -> {
                    out.println(USAGE);
                    return "";
                }
                case "-V", "--version" -> {
                    String v = BoardMain.class.getPackage().getImplementationVersion();
                    out.println("spectrum board " + (v != null ? v : "dev") + " (libtracer protocol v1)");
                    return "";
                }
                case "--exit-with-stdin" -> exitWithStdin = true;
                case "--check" -> check = true;
                default -> {
                    if (!a.startsWith("--") || i + 1 >= args.length) {
                        return a.startsWith("--") ? a + " needs a value" : "unexpected argument '" + a + "'";
                    }
                    String v = args[++i];
                    switch (a) {
                        case "--udp" -> udp = v;
                        case "--peer" -> peer = v;
                        case "--serial" -> serial = v;
                        case "--baud" -> baud = Integer.parseInt(v);
                        case "--name" -> name = v;
                        case "--config" -> config = v;
                        case "--app" -> apps.add(java.nio.file.Path.of(v));
                        case "--period" -> periodMillis = Long.parseLong(v);
                        case "--ping" -> pingMillis = Long.parseLong(v);
                        case "--timeout" -> timeoutMillis = Long.parseLong(v);
                        case "--frame" -> frameBytes = Integer.parseInt(v);
                        case "--rcvbuf" -> receiveBuffer = Integer.parseInt(v);
                        case "--duration" -> durationSeconds = Double.parseDouble(v);
                        case "--dtls-key" -> dtlsKey = v;
                        case "--dtls-ca" -> dtlsCa = v;
                        case "--dtls-keys" -> dtlsKeys = v;
                        default -> {
                            return "unknown option '" + a + "'";
                        }
                    }
                }
            }
        }
        if (name != null && name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 64) {
            return "--name must be at most 64 bytes";
        }
        if (serial != null && (dtlsKey != null || dtlsCa != null || dtlsKeys != null)) {
            return "DTLS is for a UDP link (--udp or --peer), not --serial";
        }
        if (check) {
            return config != null ? null : "--check needs --config FILE";
        }
        int given = (udp != null ? 1 : 0) + (peer != null ? 1 : 0) + (serial != null ? 1 : 0);
        return given == 1 ? null : "give exactly one of --udp HOST:PORT, --peer HOST:PORT, --serial DEVICE";
    }

    private int start(PrintWriter out, PrintWriter err) {
        // the board file is read and checked before any link is opened: a wrong one changes nothing
        BoardFile file;
        try {
            file = config == null ? null : new BoardFileParser(periodMillis, name).parse(java.nio.file.Path.of(config));
        } catch (BoardFileError e) {
            err.println("board: " + e.getMessage());
            err.flush();
            return 2;
        }
        if (file != null && file.warning() != null) {
            err.println("board: " + file.warning());
            err.flush();
        }
        if (check) {
            return check(file, out, err);
        }
        // then the link, at once: a serial host's requests that arrive before the port is open are lost
        Link link;
        try {
            LinkSettings settings = new LinkSettings().pingMillis(pingMillis).timeoutMillis(timeoutMillis)
                    .frameBytes(frameBytes).receiveBufferBytes(receiveBuffer)
                    .baud(baud).name(boardName(file))
                    .dtls(LinkSpec.dtls(dtlsKey, dtlsCa, dtlsKeys, boardName(file)));
            link = udp != null ? LinkSpec.listen(1, udp, settings, SystemClock.INSTANCE)
                    : peer != null ? LinkSpec.dial(1, peer, settings, SystemClock.INSTANCE)
                    : LinkSpec.serial(1, serial, baud, settings, SystemClock.INSTANCE);
        } catch (IllegalArgumentException | IOException e) {
            err.println("board: cannot open the link: " + e.getMessage());
            err.flush();
            return 2;
        }
        // then the board (its pins): if one cannot be opened, the link is closed again before it served anything
        Board board;
        try {
            board = board(file);
        } catch (BoardFileError e) {
            closeQuietly(link);
            err.println("board: " + e.getMessage());
            err.flush();
            return 2;
        } catch (IllegalStateException e) {
            closeQuietly(link);
            err.println("board: cannot start: " + e.getMessage().replace('\n', ' '));
            err.flush();
            return 2;
        }
        String name = board.name();
        board.attach(link);
        for (String warning : LinkNotices.atStart(link, board.loop().node())) {
            err.println(warning);
        }
        err.flush();
        board.start();
        out.println(name + " ready on " + link.name());
        out.flush();
        try {
            NodeProcess.runUntilStopped(board, durationSeconds, exitWithStdin);
        } catch (InterruptedException e) {
            board.close(); // before re-asserting the interrupt, so the loop's runner closes without retrying
            Thread.currentThread().interrupt();
        }
        out.println(name + " stopped");
        out.flush();
        return 0;
    }

    /**
     * {@code --check}: the file parsed, its vertices and apps resolved ({@link BoardSetup#check}),
     * and nothing touched. A board may be running on these pins: opening one would drive its
     * output to the file's initial level, and a bus read is a real transaction.
     */
    private int check(BoardFile file, PrintWriter out, PrintWriter err) {
        try {
            BoardSetup.check(file, apps);
        } catch (BoardFileError e) {
            err.println("board: " + e.getMessage());
            err.flush();
            return 2;
        }
        out.println(config + ": ok (" + boardName(file) + ")");
        out.flush();
        return 0;
    }

    private static void closeQuietly(Link link) {
        if (link != null) {
            link.close();
        }
    }

    /** The board the options ask for: a program, the board file (and its apps) or the demo. */
    private Board board(BoardFile file) throws BoardFileError {
        NodeConfig nodeConfig = NodeConfig.defaults();
        if (program != null) {
            String n = name != null ? name : BoardFile.DEFAULT_NAME;
            return new Board(n, nodeConfig, program.apply(n));
        }
        if (file == null) {
            String n = name != null ? name : BoardFile.DEFAULT_NAME;
            return new Board(n, periodMillis >= 0 ? periodMillis : 250);
        }
        String n = boardName(file);
        // the file's backfill: how many last values each declared vertex keeps for a host (docs/board.md)
        return new Board(n, nodeConfig.toBuilder().backfillDepth(file.backfill()).build(), BoardSetup.host(file, n, apps));
    }

    /** The board's name: --name, else the board file's, else "board" (also the DTLS key's name in --dtls-keys DIR). */
    private String boardName(BoardFile file) {
        return name != null ? name : file != null && file.name() != null ? file.name() : BoardFile.DEFAULT_NAME;
    }
}
