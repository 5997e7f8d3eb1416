package io.spectrum.bench.host;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

/** Free loopback ports and the tools a benchmark starts (this JVM's java, binaries on PATH). */
final class Ports {
    private Ports() {
    }

    static int freeUdp() {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static int freeTcp() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The java launcher of this JVM. */
    static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    /** The executable {@code name} on PATH (or in /usr/sbin, where Debian puts mosquitto), or null. */
    static Path onPath(String name) {
        String path = System.getenv().getOrDefault("PATH", "") + java.io.File.pathSeparator + "/usr/sbin";
        for (String dir : path.split(java.io.File.pathSeparator)) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }
}
