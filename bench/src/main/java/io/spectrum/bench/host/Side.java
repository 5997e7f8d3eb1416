package io.spectrum.bench.host;

/**
 * One system under comparison in {@link HostVsMosquitto}: a server process (whose CPU is read from
 * {@code /proc}), one publisher and N subscribers in this JVM, all over loopback.
 */
interface Side extends AutoCloseable {
    String name();

    /** The server process whose CPU is charged to this side. */
    long serverPid();

    /** Messages received by all subscribers so far. */
    long delivered();

    /** Sends one message carrying {@code payload} to the server (fire and forget). */
    void publish(byte[] payload);

    @Override
    void close();
}
