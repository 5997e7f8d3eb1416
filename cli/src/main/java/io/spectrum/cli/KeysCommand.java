package io.spectrum.cli;

import io.spectrum.link.dtls.DtlsCredentials;
import io.spectrum.link.dtls.keys.FleetCa;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * {@code spectrum keys}: the fleet CA for DTLS links ({@link FleetCa}): {@code init} makes the CA,
 * {@code issue NAME} a board's or host's key and certificate, {@code revoke NAME} adds it to the
 * revocation list every node reads at start. All files are PEM in one directory (openssl reads them).
 */
@Command(name = "keys",
        description = {"The fleet CA for DTLS links (docs/security.md): init, issue NAME, revoke NAME.",
                "Files (PEM) in --dir: ca.key (keep it here, never on a board), ca.crt, revoked.crl, NAME.key, NAME.crt."},
        subcommands = {KeysCommand.Init.class, KeysCommand.Issue.class, KeysCommand.Revoke.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done", "2:bad arguments, or the files refuse (exists already, missing, not the CA's)"})
public final class KeysCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The keys directory option every subcommand takes. */
    static final class Dir {
        @Option(names = "--dir", paramLabel = "DIR", defaultValue = "keys",
                description = "The fleet's keys directory. Default: ${DEFAULT-VALUE}.")
        Path dir;
    }

    static int fail(CommandLine.Model.CommandSpec spec, IOException e) {
        PrintWriter err = spec.commandLine().getErr();
        err.println("spectrum keys: " + e.getMessage());
        err.flush();
        return 2;
    }

    @Command(name = "init", description = "Create the fleet CA (ca.key, ca.crt) and an empty revocation list (revoked.crl).")
    static final class Init implements Callable<Integer> {
        @CommandLine.Mixin
        Dir dir;

        @Option(names = "--name", paramLabel = "NAME", defaultValue = "spectrum fleet CA",
                description = "The CA's name (its certificate's CN). Default: ${DEFAULT-VALUE}.")
        String name;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            try {
                FleetCa ca = FleetCa.init(dir.dir, name);
                PrintWriter out = spec.commandLine().getOut();
                out.printf("fleet CA '%s' in %s: %s (keep it here), %s, %s%n", name, dir.dir, DtlsCredentials.CA_KEY,
                        DtlsCredentials.CA_CERT, DtlsCredentials.REVOCATION_LIST);
                out.printf("next: spectrum keys issue NAME --dir %s (one per board and host)%n", dir.dir);
                out.flush();
                return ca != null ? 0 : 2;
            } catch (IOException e) {
                return fail(spec, e);
            }
        }
    }

    @Command(name = "issue", description = "Issue NAME.key and NAME.crt (CN=NAME, signed by the fleet CA) for a board or host.")
    static final class Issue implements Callable<Integer> {
        @CommandLine.Mixin
        Dir dir;

        @Parameters(paramLabel = "NAME", description = "The node's name: its identity on DTLS links (a board's --name).")
        String name;

        @Option(names = "--days", paramLabel = "N", defaultValue = "825", description = "Validity. Default: ${DEFAULT-VALUE}.")
        long days;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            if (days <= 0) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--days must be positive");
            }
            try {
                X509Certificate cert = FleetCa.open(dir.dir).issue(name, Duration.ofDays(days));
                PrintWriter out = spec.commandLine().getOut();
                out.printf("%s: %s, %s (serial %s, valid until %s)%n", name, dir.dir.resolve(name + DtlsCredentials.KEY_SUFFIX),
                        dir.dir.resolve(name + DtlsCredentials.CERT_SUFFIX), cert.getSerialNumber().toString(16),
                        cert.getNotAfter().toInstant());
                out.flush();
                return 0;
            } catch (IOException e) {
                return fail(spec, e);
            }
        }
    }

    @Command(name = "revoke", description = "Add NAME's certificate to revoked.crl; copy the list to every node (read at start).")
    static final class Revoke implements Callable<Integer> {
        @CommandLine.Mixin
        Dir dir;

        @Parameters(paramLabel = "NAME", description = "The node whose certificate (DIR/NAME.crt) is revoked.")
        String name;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            try {
                java.math.BigInteger serial = FleetCa.open(dir.dir).revoke(name);
                PrintWriter out = spec.commandLine().getOut();
                out.printf("revoked %s (serial %s) in %s; nodes refuse it once they restart with this list%n", name,
                        serial.toString(16), dir.dir.resolve(DtlsCredentials.REVOCATION_LIST));
                out.flush();
                return 0;
            } catch (IOException e) {
                return fail(spec, e);
            }
        }
    }
}
