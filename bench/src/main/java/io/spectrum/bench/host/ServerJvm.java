package io.spectrum.bench.host;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A server JVM a benchmark starts ({@link BenchHost}, {@link UdpRelay}): this JVM's java and class
 * path, ready once it prints a line starting {@code READY} (what JVM flags print before it is
 * skipped), refused with its reason when it prints {@code SKIP reason}; stopped by closing its
 * standard input.
 */
final class ServerJvm {
    private ServerJvm() {
    }

    static Process start(List<String> jvmFlags, Class<?> main, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Ports.java());
        cmd.addAll(jvmFlags);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        while (line != null && !line.startsWith("READY") && !line.startsWith("SKIP")) {
            line = out.readLine(); // e.g. JFR's startup line
        }
        if (line == null || !line.startsWith("READY")) {
            p.destroy();
            throw new IllegalStateException(line != null ? line.substring(5)
                    : main.getSimpleName() + " ended before it was ready");
        }
        return p;
    }

    /** Closes the server's standard input and waits for it to end (destroys it if that fails). */
    static void stop(Process p) {
        try {
            p.getOutputStream().close();
            p.waitFor();
        } catch (IOException e) {
            p.destroy();
        } catch (InterruptedException e) {
            p.destroy();
            Thread.currentThread().interrupt();
        }
    }
}
