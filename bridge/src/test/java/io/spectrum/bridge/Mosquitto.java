package io.spectrum.bridge;

import io.spectrum.testing.Tools;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A real Mosquitto broker for a test: Debian's {@code /usr/sbin/mosquitto} (or one on PATH) on a
 * free loopback port with a generated config, no persistence (a restart loses every retained
 * message, so only the bridges can bring them back). Where it is not installed the test is skipped
 * with the reason named (a failure under CI, which installs it).
 */
public final class Mosquitto implements AutoCloseable {
    private final Path program;
    private final Path dir;
    private final int port;
    private Process process;

    private Mosquitto(Path program, Path dir, int port) {
        this.program = program;
        this.dir = dir;
        this.port = port;
    }

    public static Mosquitto start() throws IOException, InterruptedException {
        Path p = Path.of("/usr/sbin/mosquitto");
        if (!Files.isExecutable(p)) {
            p = Tools.require("mosquitto", "mosquitto", "the MQTT bridge's tests run against a real broker");
        }
        Path dir = Files.createTempDirectory("spectrum-mosquitto");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Files.writeString(dir.resolve("mosquitto.conf"), "listener " + port + " 127.0.0.1\n"
                + "allow_anonymous true\npersistence false\nlog_dest stderr\nlog_type error\nlog_type warning\n"
                + "max_queued_messages 100000\n");
        Mosquitto m = new Mosquitto(p, dir, port);
        m.restart();
        return m;
    }

    public String url() {
        return "mqtt://127.0.0.1:" + port;
    }

    public BrokerAddress address() {
        return BrokerAddress.parse(url(), null, java.util.Map.of());
    }

    /** Starts the broker (again, on the same port) and waits until it accepts connections. */
    public void restart() throws IOException, InterruptedException {
        process = new ProcessBuilder(program.toString(), "-c", dir.resolve("mosquitto.conf").toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("mosquitto.log").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("mosquitto exited: " + Files.readString(dir.resolve("mosquitto.log")));
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException e) {
                Thread.sleep(50);
            }
        }
        throw new IOException("mosquitto did not listen on " + port + " within 20 s");
    }

    /** Kills the broker (SIGKILL: no goodbye to anyone) and waits for it to be gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null) {
            kill();
        }
    }
}
