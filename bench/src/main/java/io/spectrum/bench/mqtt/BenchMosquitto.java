package io.spectrum.bench.mqtt;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A Mosquitto the MQTT benchmarks start on a free loopback port (anonymous, no persistence, a deep
 * per-client queue, every other setting Mosquitto's default, so its Receive Maximum is 20), and can
 * kill (SIGKILL: no goodbye to its clients) and start again on the same port.
 */
public final class BenchMosquitto implements AutoCloseable {
    private final String executable;
    private final Path dir;
    private final int port;
    private Process process;

    private BenchMosquitto(String executable, Path dir, int port) {
        this.executable = executable;
        this.dir = dir;
        this.port = port;
    }

    /** Starts {@code executable} on a free loopback port with its configuration in a new temp directory. */
    public static BenchMosquitto start(String executable) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path dir = Files.createTempDirectory("bench-mosquitto");
        Files.writeString(dir.resolve("m.conf"), "listener " + port + " 127.0.0.1\nallow_anonymous true\npersistence false\n"
                + "max_queued_messages 1000000\n");
        BenchMosquitto m = new BenchMosquitto(executable, dir, port);
        m.restart();
        return m;
    }

    /** The broker's {@code mqtt://127.0.0.1:PORT} URL (the port stays the same across restarts). */
    public String url() {
        return "mqtt://127.0.0.1:" + port;
    }

    /** The broker's process id (for its CPU time), or -1 while it is down. */
    public long pid() {
        return process != null && process.isAlive() ? process.pid() : -1;
    }

    /** Kills the broker at once (SIGKILL) and waits until it is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** Starts the broker (again) on the same port and waits until it listens. */
    void restart() throws Exception {
        process = new ProcessBuilder(executable, "-c", dir.resolve("m.conf").toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("m.log").toFile())).start();
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < deadline) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException e) {
                Thread.sleep(20);
            }
        }
        throw new IOException("mosquitto did not listen on " + port + " (see " + dir.resolve("m.log") + ")");
    }

    @Override
    public void close() {
        if (process != null) {
            process.destroyForcibly();
        }
    }
}
