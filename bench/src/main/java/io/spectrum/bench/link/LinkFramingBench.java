package io.spectrum.bench.link;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.link.serial.CobsDeframer;
import io.spectrum.link.serial.CobsFramer;
import io.spectrum.link.serial.InMemorySerialPort;
import io.spectrum.link.serial.SerialLink;
import io.spectrum.link.serial.SerialLinkConfig;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * The serial link's own cost per frame, without a line: COBS + CRC-32C framing and deframing of a
 * 68-byte frame (a VALUE with a 64-byte payload), and a SerialLink send plus poll over an in-memory
 * line. {@code -prof gc} shows the allocation per operation (expected ~0).
 *
 * <pre>java -jar bench/target/benchmarks.jar LinkFraming -f 1 -wi 3 -w 1s -i 5 -r 1s -prof gc</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class LinkFramingBench {
    private byte[] frame;
    private final byte[] wire = new byte[256];
    private int wireLen;
    private final CobsDeframer deframer = new CobsDeframer(1024);
    private SerialLink tx;
    private SerialLink rx;
    private final FrameHandler sink = new FrameHandler() {
        @Override
        public void onFrame(Link link, int peer, byte[] buf, int off, int len) {
            received += len;
        }
    };
    long received;

    /** Builds the 68-byte frame, its COBS encoding and a pair of serial links over an in-memory line. */
    @Setup
    public void setup() {
        byte[] body = new byte[64];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) (i * 7 + 1);
        }
        byte[] out = new byte[128];
        TlvWriter w = new TlvWriter().wrap(out, 0, out.length);
        w.leaf(TlvType.VALUE, body, 0, body.length);
        frame = Arrays.copyOf(out, w.length());
        wireLen = CobsFramer.encode(frame, 0, frame.length, wire, 0, wire.length);
        InMemorySerialPort[] line = InMemorySerialPort.pair("bench", 1 << 16);
        SerialLinkConfig cfg = new SerialLinkConfig().maxFrame(1024);
        tx = new SerialLink(1, line[0], cfg, SystemClock.INSTANCE);
        rx = new SerialLink(2, line[1], cfg, SystemClock.INSTANCE);
        tx.poll(sink, 1);
        rx.poll(sink, 1);
    }

    /** COBS + CRC-32C framing of the frame; returns the wire length. */
    @Benchmark
    public int cobsEncode() {
        return CobsFramer.encode(frame, 0, frame.length, wire, 0, wire.length);
    }

    /** Deframing of the encoded frame; returns the frame length found. */
    @Benchmark
    public int cobsDecode() {
        deframer.consume(wire, 0, wireLen);
        return deframer.frameLength();
    }

    /**
     * One send on the sending link and one poll of the receiving link over the in-memory line; returns the frames
     * polled.
     */
    @Benchmark
    public int serialLinkSendAndPoll() {
        tx.send(0, frame, 0, frame.length);
        return rx.poll(sink, 1);
    }
}
