package io.spectrum.board;

import io.spectrum.link.Link;
import io.spectrum.runtime.LinkNotices;
import io.spectrum.runtime.LinkSettings;
import io.spectrum.runtime.LinkSpec;
import io.spectrum.runtime.NodeProcess;
import io.spectrum.time.SystemClock;

import java.io.IOException;
import java.io.PrintWriter;

/**
 * What a flashed board runs: the demo {@link Board} on exactly one link, until stopped. The board
 * bundle carries no command-line library, so the options are parsed here; {@code spectrum board}
 * on a host hands its arguments to the same {@link #run} so both accept the same options.
 *
 * <pre>
 * BoardMain (--udp HOST:PORT | --peer HOST:PORT | --serial DEVICE [--baud N])
 *           [--name NAME] [--period MS] [--ping MS] [--timeout MS] [--frame BYTES] [--rcvbuf BYTES]
 *           [--dtls-key FILE --dtls-ca FILE | --dtls-keys DIR]
 *           [--duration SECONDS] [--exit-with-stdin] [--help] [--version]
 * </pre>
 * Exit codes: 0 after a normal stop, 2 for a usage error or a link that cannot be opened.
 */
public final class BoardMain {
    static final String USAGE = String.join(System.lineSeparator(),
            "Usage: board (--udp HOST:PORT | --peer HOST:PORT | --serial DEVICE [--baud N]) [options]",
            "Run a NARROW board node with demo vertices (/board/temp, /board/humidity, /board/counter,",
            "/board/led, /board/name) on one UDP or serial link.",
            "      --udp HOST:PORT      Bind and listen on UDP (hosts learn us by dialing). A bare :PORT",
            "                           binds 127.0.0.1; 0.0.0.0 exposes the board to every network",
            "                           it is on (a warning says what; docs/security.md).",
            "      --peer HOST:PORT     Dial a UDP listener instead.",
            "      --serial DEVICE      Serial device (e.g. /dev/ttyUSB0 or a pty).",
            "      --baud N             Serial baud rate (8N1). Default: 115200.",
            "      --name NAME          Board name, published as /board/name. Default: board.",
            "      --period MS          Update period of the demo values. Default: 250.",
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
    private String name = "board";
    private long periodMillis = 250;
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
        if (name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 64) {
            return "--name must be at most 64 bytes";
        }
        if (serial != null && (dtlsKey != null || dtlsCa != null || dtlsKeys != null)) {
            return "DTLS is for a UDP link (--udp or --peer), not --serial";
        }
        int given = (udp != null ? 1 : 0) + (peer != null ? 1 : 0) + (serial != null ? 1 : 0);
        return given == 1 ? null : "give exactly one of --udp HOST:PORT, --peer HOST:PORT, --serial DEVICE";
    }

    private int start(PrintWriter out, PrintWriter err) {
        Link link;
        try {
            LinkSettings settings = new LinkSettings().pingMillis(pingMillis).timeoutMillis(timeoutMillis)
                    .frameBytes(frameBytes).receiveBufferBytes(receiveBuffer)
                    .dtls(LinkSpec.dtls(dtlsKey, dtlsCa, dtlsKeys, name));
            link = udp != null ? LinkSpec.udpListen(1, udp, settings, SystemClock.INSTANCE)
                    : peer != null ? LinkSpec.udpDial(1, peer, settings, SystemClock.INSTANCE)
                    : LinkSpec.serial(1, serial, baud, settings, SystemClock.INSTANCE);
        } catch (IllegalArgumentException | IOException e) {
            err.println("board: cannot open the link: " + e.getMessage());
            err.flush();
            return 2;
        }
        Board board = program == null ? new Board(name, periodMillis)
                : new Board(name, io.spectrum.node.api.NodeConfig.defaults(), program.apply(name));
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
}
