package io.spectrum.bench.link;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.time.SystemClock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * A burst of {@link #BURST} datagrams over loopback, one thread: a dialing UdpLink sends them (and
 * flushes, as the node loop does once per step) and a listening UdpLink polls until all arrived.
 * {@code batch=0} is the JDK channel path (one system call per datagram each way), {@code 16} and
 * {@code 32} the batched {@code sendmmsg}/{@code recvmmsg} path. The score is time per datagram
 * (send and receive); {@code -prof gc} shows the allocation per datagram.
 *
 * <pre>java -jar bench/target/benchmarks.jar UdpBurstBench -f 1 -wi 3 -w 1s -i 5 -r 1s</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class UdpBurstBench {
    /** Datagrams per burst. */
    public static final int BURST = 64;

    /** Datagrams per system call; 0: the JDK channel path. */
    @Param({"0", "16", "32"})
    public int batch;

    private UdpLink server;
    private UdpLink client;
    private byte[] frame;
    private final Counter sink = new Counter();

    /** Counts what the listener delivered. */
    static final class Counter implements FrameHandler {
        long frames;

        @Override
        public void onFrame(Link link, int peer, byte[] buf, int off, int len) {
            frames++;
        }
    }

    /** Opens the pair on loopback and arms queued sends (as the node loop's flush does). */
    @Setup(Level.Trial)
    public void setup() throws Exception {
        UdpLinkConfig cfg = new UdpLinkConfig().batch(batch).socketBufferBytes(4 << 20);
        server = UdpLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), cfg, SystemClock.INSTANCE);
        client = UdpLink.dial(2, server.localAddress(), cfg, SystemClock.INSTANCE);
        if (batch > 0 && !(server.batchedIo() && client.batchedIo())) {
            throw new IllegalStateException("batched I/O unavailable: " + UdpLink.batchUnavailableReason());
        }
        frame = UdpLinkLatency.frame();
        client.flush();
    }

    /** Prints datagrams per system call on the batched path. */
    @TearDown(Level.Trial)
    public void tearDown() {
        if (batch > 0) {
            System.out.printf("%nbatch=%d: sent %d in %d sendmmsg, received %d in %d recvmmsg%n", batch,
                    client.stats().framesOut(), client.batchCalls(), server.stats().framesIn(), server.batchCalls());
        }
        client.close();
        server.close();
    }

    /** One burst: send {@link #BURST} frames, flush, poll the listener until all of them arrived. */
    @Benchmark
    @OperationsPerInvocation(BURST)
    public long burst() {
        for (int i = 0; i < BURST; i++) {
            client.send(0, frame, 0, frame.length);
        }
        client.flush();
        long want = sink.frames + BURST;
        long spins = 0;
        while (sink.frames < want && ++spins < 10_000_000L) {
            server.poll(sink, BURST);
        }
        return sink.frames;
    }
}
