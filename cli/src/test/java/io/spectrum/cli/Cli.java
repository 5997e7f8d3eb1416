package io.spectrum.cli;

import picocli.CommandLine;

import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Runs the command line in-process with captured output (test helper). */
final class Cli {
    record Run(int code, String out, String err) {
        String all() {
            return out + err;
        }
    }

    private Cli() { }

    /** Runs with no defaults from this machine's environment or config file. */
    static Run run(String... args) {
        return runWith(Defaults.none(), args);
    }

    static Run runWith(Defaults defaults, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = SpectrumCommand.commandLine(defaults);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    /** The main (non-test) part of this JVM's classpath: what a board needs to run `spectrum`. */
    static List<Path> mainClasspath() {
        List<Path> out = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            String n = e.replace('\\', '/');
            if (n.isEmpty() || n.contains("/test-classes") || n.matches(".*/(junit|opentest4j|apiguardian|archunit|surefire)[^/]*/.*")
                    || n.contains("/org/junit/") || n.contains("/com/tngtech/") || n.contains("/org/opentest4j/")
                    || n.contains("/org/apiguardian/") || n.contains("surefire")) {
                continue;
            }
            Path p = Path.of(e);
            if (Files.exists(p)) {
                out.add(p);
            }
        }
        return out;
    }

    static String mainClasspathOption() {
        return String.join(":", mainClasspath().stream().map(Path::toString).toList());
    }

    /** Runs a process to completion with a deadline; returns exit code and merged output. */
    static Run exec(List<String> command, java.util.Map<String, String> env, Path dir) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        if (dir != null) {
            pb.directory(dir.toFile());
        }
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        java.util.concurrent.CompletableFuture<String> output = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            } catch (java.io.IOException ex) {
                return "";
            }
        });
        if (!p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor();
            throw new AssertionError(command + " did not finish in 120 s; output:\n" + output.getNow(""));
        }
        return new Run(p.exitValue(), output.get(), "");
    }
}
