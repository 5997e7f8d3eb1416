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
    private final boolean tls;
    private Process process;

    private Mosquitto(Path program, Path dir, int port, boolean tls) {
        this.program = program;
        this.dir = dir;
        this.port = port;
        this.tls = tls;
    }

    public static Mosquitto start() throws IOException, InterruptedException {
        return start(null, null);
    }

    /**
     * A broker on TLS only (a self-signed certificate for 127.0.0.1, made with openssl; its trust
     * store is {@link #trustStore()}, password {@code changeit}) that takes only {@code user} with
     * {@code password}.
     */
    public static Mosquitto startTls(String user, String password) throws IOException, InterruptedException {
        return start(user, password);
    }

    private static Mosquitto start(String user, String password) throws IOException, InterruptedException {
        Path p = Path.of("/usr/sbin/mosquitto");
        if (!Files.isExecutable(p)) {
            p = Tools.require("mosquitto", "mosquitto", "the MQTT bridge's tests run against a real broker");
        }
        Path dir = Files.createTempDirectory("spectrum-mosquitto");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        // started as root, mosquitto would drop to user mosquitto, who cannot read this private directory
        String conf = "user " + System.getProperty("user.name") + "\nlistener " + port + " 127.0.0.1\n"
                + "persistence false\nlog_dest stderr\nlog_type error\nlog_type warning\nmax_queued_messages 100000\n";
        if (user == null) {
            conf += "allow_anonymous true\n";
        } else {
            Path openssl = Tools.require("openssl", "openssl", "the TLS test makes its broker's certificate");
            run(dir, openssl.toString(), "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "key.pem", "-out",
                    "cert.pem", "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1");
            run(dir, Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-importcert", "-noprompt",
                    "-alias", "broker", "-file", "cert.pem", "-keystore", "trust.p12", "-storetype", "PKCS12",
                    "-storepass", "changeit");
            Files.writeString(dir.resolve("passwd"), "");
            run(dir, "mosquitto_passwd", "-b", "passwd", user, password);
            conf += "allow_anonymous false\npassword_file " + dir.resolve("passwd") + "\ncertfile " + dir.resolve("cert.pem")
                    + "\nkeyfile " + dir.resolve("key.pem") + "\n";
        }
        Files.writeString(dir.resolve("mosquitto.conf"), conf);
        Mosquitto m = new Mosquitto(p, dir, port, user != null);
        m.restart();
        return m;
    }

    private static void run(Path dir, String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed: " + out);
        }
    }

    /** The PKCS12 trust store holding the TLS broker's certificate. */
    public Path trustStore() {
        return dir.resolve("trust.p12");
    }

    public String url() {
        return (tls ? "mqtts" : "mqtt") + "://127.0.0.1:" + port;
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
