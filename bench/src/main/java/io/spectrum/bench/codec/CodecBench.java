package io.spectrum.bench.codec;

import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.FrameEncoder;
import io.spectrum.wire.SubscriberRenderer;
import io.spectrum.wire.TlvIndex;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Decode + encode round-trips of two protocol frames, for comparison with the C++ reference's
 * published ~205 ns per round-trip:
 * the 44-byte SUBSCRIBER record (spectrum-v1 subscriber/policy-suspended) and the 38-byte FWD READ
 * request (libtracer-v1 fwd/fwd-read). Plus the RFC-0035 toggle-arm comparison.
 *
 * <pre>java -jar bench/target/benchmarks.jar Codec -f 1 -wi 3 -w 1s -i 5 -r 1s -prof gc</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CodecBench {
    static final byte[] SUBSCRIBER_SUSPENDED = HexFormat.of().parseHex(
            "044028000600070006636C69656E740B40190002000F0064656C69766572795F706F6C696379010002000002");
    static final byte[] FWD_READ = HexFormat.of().parseHex(
            "0f402200010001000006000c000673656e736f720474656d7006000900087265706c792d6570");
    static final byte[] SUBSCRIBER_CLIENT = HexFormat.of().parseHex("04400b000600070006636C69656E74");

    private final FrameDecoder decoder = new FrameDecoder();
    private final FrameEncoder encoder = new FrameEncoder();
    private final TlvIndex index = new TlvIndex();
    private final byte[] out = new byte[256];
    private final SubscriberRenderer renderer = new SubscriberRenderer();
    private final byte[] scratch = new byte[256];

    private int roundTrip(byte[] frame) {
        int r = decoder.decode(frame, 0, frame.length, index);
        if (r != 0) {
            return -r;
        }
        return encoder.encode(index, 0, out, 0, out.length);
    }

    /**
     * Decode and re-encode of the 44-byte SUBSCRIBER record; returns the encoded length (or a negated decode error).
     */
    @Benchmark
    public int subscriberRoundTrip() {
        return roundTrip(SUBSCRIBER_SUSPENDED);
    }

    /** Decode and re-encode of the 38-byte FWD READ request; returns the encoded length (or a negated decode error). */
    @Benchmark
    public int fwdReadRoundTrip() {
        return roundTrip(FWD_READ);
    }

    /** Decode alone of the SUBSCRIBER record; returns the decoder's status. */
    @Benchmark
    public int subscriberDecodeOnly() {
        return decoder.decode(SUBSCRIBER_SUSPENDED, 0, SUBSCRIBER_SUSPENDED.length, index);
    }

    /** The [N] write's toggle arm: is the candidate the stored record's rendering with bit 9 = x? */
    @Benchmark
    public int toggleArmMatch() {
        return renderer.matchesRendering(SUBSCRIBER_CLIENT, 0, SUBSCRIBER_CLIENT.length,
                SUBSCRIBER_SUSPENDED, 0, SUBSCRIBER_SUSPENDED.length, scratch, 0, scratch.length);
    }
}
