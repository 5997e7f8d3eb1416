package io.spectrum.cli.demo;

import io.spectrum.link.serial.pty.PtyPair;
import io.spectrum.cli.SpectrumCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** `spectrum demo` in its own JVM, as a user runs it: values from both boards, and a clean stop. */
class DemoTest {
    @TempDir
    Path tmp;

    static final class Run {
        final Process process;
        final List<String> lines = new CopyOnWriteArrayList<>();
        final Thread reader;

        Run(List<String> args) throws Exception {
            List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), SpectrumCommand.class.getName(), "demo"));
            cmd.addAll(args);
            process = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    String l;
                    while ((l = in.readLine()) != null) {
                        lines.add(l);
                    }
                } catch (Exception e) {
                    // process ended
                }
            });
            reader.setDaemon(true);
            reader.start();
        }

        boolean printed(String prefix) {
            return lines.stream().anyMatch(l -> l.startsWith(prefix));
        }

        void awaitPrinted(String prefix) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!printed(prefix) && process.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertTrue(printed(prefix), "never printed " + prefix + ":\n" + String.join("\n", lines));
        }

        void kill() {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void demoForFifteenSecondsPrintsValuesFromBothBoardsAndCleansUp() throws Exception {
        Path work = tmp.resolve("work");
        Run run = new Run(List.of("--duration", "15", "--port", "0", "--lines", "--work-dir", work.toString()));
        try {
            List<ProcessHandle> children = new ArrayList<>();
            run.awaitPrinted("dashboard: http://127.0.0.1:");
            run.awaitPrinted("clients: udp 127.0.0.1:");
            String clients = run.lines.stream().filter(l -> l.startsWith("clients: udp ")).findFirst().orElseThrow()
                    .split(" ")[2];
            // the demo's host serves /metrics (docs/grafana/spectrum.json's source), its boards' links among them
            // (scraped at once, while the demo surely runs; the values are MetricsEndpointTest's)
            run.awaitPrinted("metrics: http://127.0.0.1:");
            String metrics = run.lines.stream().filter(l -> l.startsWith("metrics: ")).findFirst().orElseThrow()
                    .substring("metrics: ".length());
            java.util.function.Predicate<String> board2Link = l -> l.startsWith("spectrum_up{board=\"board2\",scope=\"link\"");
            String scraped = "";
            for (int i = 0; i < 20 && scraped.lines().noneMatch(board2Link); i++) { // the host's first snapshot: 100 ms
                if (i > 0) {
                    Thread.sleep(250);
                }
                java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(
                        java.net.http.HttpRequest.newBuilder(java.net.URI.create(metrics)).timeout(java.time.Duration.ofSeconds(10))
                                .build(), java.net.http.HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode(), r.body());
                scraped = r.body();
            }
            assertTrue(scraped.lines().anyMatch(board2Link), scraped);
            run.awaitPrinted("/board");
            String shown = run.lines.stream().filter(l -> l.startsWith("/board")).findFirst().orElseThrow().split(" ")[0];
            assertEquals(0, SpectrumCommand.execute("read", "--peer", clients, shown),
                    "README's client lines work against the demo's host at " + clients);
            run.process.descendants().forEach(children::add);
            assertTrue(run.process.waitFor(60, TimeUnit.SECONDS), "demo --duration 15 ends by itself");
            run.reader.join(5000);
            assertEquals(0, run.process.exitValue(), String.join("\n", run.lines));
            assertTrue(run.printed("/board1/temp = "), String.join("\n", run.lines));
            assertTrue(run.printed("/board2/temp = "), String.join("\n", run.lines));
            assertTrue(run.lines.stream().anyMatch(l -> l.matches("/board2/counter = \\d+  \\(seq \\d+\\)")), String.join("\n", run.lines));
            assertTrue(run.printed("demo: stopping"));
            assertTrue(children.size() >= 2, "boards ran as child processes: " + children);
            for (ProcessHandle c : children) {
                c.onExit().get(10, TimeUnit.SECONDS);
                assertFalse(c.isAlive(), "left running: " + c.info().commandLine().orElse("?"));
            }
            if (PtyPair.available()) {
                assertTrue(run.lines.get(0).contains("by pseudo-terminal pairs"), run.lines.get(0));
                assertFalse(work.resolve("board1-host").toFile().exists(), "pty links removed");
            }
        } finally {
            run.kill();
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aBusyPortGivenOnTheCommandLineIsOneLineAndExit2() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            Run run = new Run(List.of("--port", String.valueOf(taken.getLocalPort()), "--lines"));
            try {
                assertTrue(run.process.waitFor(30, TimeUnit.SECONDS), "refused at once");
                run.reader.join(5000);
                assertEquals(2, run.process.exitValue(), String.join("\n", run.lines));
                assertEquals("spectrum demo: port " + taken.getLocalPort() + " on 127.0.0.1 is in use: give another --port, "
                        + "or --port 0 for any free one", run.lines.get(0));
                assertFalse(run.printed("dashboard:"), "nothing served elsewhere");
            } finally {
                run.kill();
            }
        }
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void ctrlCStopsBoardsOverUdp() throws Exception {
        Run run = new Run(List.of("--udp", "--port", "0", "--lines"));
        try {
            run.awaitPrinted("/board2/temp = ");
            assertTrue(run.lines.get(0).contains("over UDP loopback"), run.lines.get(0));
            List<ProcessHandle> children = new ArrayList<>();
            run.process.descendants().forEach(children::add);
            assertEquals(2, children.size(), "two board JVMs");
            // SIGTERM (as Ctrl-C), through the handle: Process.destroy() would also close our end of its output
            run.process.toHandle().destroy();
            assertTrue(run.process.waitFor(30, TimeUnit.SECONDS));
            for (ProcessHandle c : children) {
                c.onExit().get(15, TimeUnit.SECONDS);
                assertFalse(c.isAlive(), "left running: " + c.info().commandLine().orElse("?"));
            }
            run.reader.join(5000);
            assertTrue(run.printed("demo: stopping"), "exit " + run.process.exitValue() + "\n" + String.join("\n", run.lines));
        } finally {
            run.kill();
        }
    }
}
