package io.spectrum.cli;

import io.spectrum.hil.ConformanceReport;
import io.spectrum.hil.HilContext;
import io.spectrum.hil.HilSuite;
import io.spectrum.hil.ScenarioResult;
import io.spectrum.hil.SerialBoardTarget;
import io.spectrum.hil.scenario.StandardScenarios;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code spectrum hil --port DEVICE}: runs the hardware-in-the-loop conformance suite against a board. */
@Command(name = "hil",
        mixinStandardHelpOptions = true,
        description = {
            "Run the hardware-in-the-loop conformance suite against a board on a serial port.",
            "The board must run `spectrum board --serial DEVICE --baud N` (the stock demo vertices).",
            "Prints one line per scenario and a Markdown table; exit 0 iff no scenario failed."},
        footer = {"", "Example: spectrum hil --port /dev/ttyUSB0 --report hil.md",
            "Scenarios that need a reset line are skipped here; run the hw-tests module with",
            "-Dspectrum.hil.resetPin=BCM for those (docs/hil.md)."})
public final class HilCommand implements Callable<Integer> {
    @Option(names = "--port", required = true, paramLabel = "DEVICE",
            description = "Serial device of the board, e.g. /dev/ttyUSB0 or /dev/serial0.")
    String port;

    @Option(names = "--baud", defaultValue = "115200", paramLabel = "N", description = "Baud rate (default ${DEFAULT-VALUE}).")
    int baud;

    @Option(names = "--report", paramLabel = "FILE", description = "Also write the Markdown report to FILE.")
    Path report;

    @Option(names = "--timeout-ms", defaultValue = "5000", paramLabel = "MS",
            description = "How long to wait for each answer from the board (default ${DEFAULT-VALUE}).")
    long timeoutMs;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (baud <= 0) {
            err.println("hil: --baud must be positive, got " + baud);
            return 2;
        }
        if (!java.nio.file.Files.exists(Path.of(port))) {
            err.println("hil: no such serial device: " + port + " (plug the board in, or check `ls /dev/tty*`)");
            return 2;
        }
        String name = Path.of(port).getFileName().toString();
        try (SerialBoardTarget target = new SerialBoardTarget(name, port, baud, Duration.ofMillis(timeoutMs), null)) {
            HilContext ctx;
            try {
                ctx = new HilContext(target);
            } catch (Exception e) {
                err.println("hil: cannot open " + port + ": " + e.getMessage());
                return 2;
            }
            out.println("HIL conformance against " + target.describe());
            HilSuite suite = new HilSuite(StandardScenarios.all());
            List<ScenarioResult> results = suite.runAll(ctx, r -> {
                out.printf("%-4s %-40s %6d ms  %s%n", r.outcome(), r.scenario(), r.millis(), r.detail());
                out.flush();
            });
            String md = ConformanceReport.markdown(target.name(), target.describe(), results);
            out.println();
            out.print(md);
            if (report != null) {
                ConformanceReport.write(report, target.name(), target.describe(), results);
                out.println("report written to " + report.toAbsolutePath());
            }
            out.flush();
            return HilSuite.exitCode(results);
        } catch (java.io.IOException e) {
            err.println("hil: cannot write the report: " + e.getMessage());
            return 2;
        }
    }
}
