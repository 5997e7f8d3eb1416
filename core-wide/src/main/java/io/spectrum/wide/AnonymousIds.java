package io.spectrum.wide;

import io.spectrum.time.Clock;
import io.spectrum.wire.Bytes;
import io.spectrum.wire.Names;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * Anonymous peer identities {@code anon-<8 lowercase hex>-<unix seconds>} (the ABP
 * profile's {@code synth_anon_id}). The hex is a bijective mix of a counter that starts at a
 * random value, so one node never hands out the same identity twice (within 2^32 connections) and
 * needs no set of the names it issued. Never persisted. Public so the host bus
 * ({@code io.spectrum.bus.state.HostBus}) names its anonymous connections the same way.
 */
public final class AnonymousIds {
    static final String PREFIX = Names.ANONYMOUS_PREFIX;
    private final Clock clock;
    private int counter;

    /** Starts the counter at a random value; {@code clock} gives the unix seconds of each identity. */
    public AnonymousIds(Clock clock) {
        this.clock = clock;
        this.counter = new SplittableRandom().nextInt();
    }

    private static final byte[] PREFIX_BYTES = PREFIX.getBytes(StandardCharsets.US_ASCII);

    /** False for a name a peer may not take: one starting with {@code $} (the node's) or {@code anon-}. */
    public static boolean nameAllowed(String name) {
        return !name.startsWith("$") && !name.startsWith(PREFIX);
    }

    /** {@link #nameAllowed(String)} for the UTF-8 bytes {@code b[off, +len)}. */
    static boolean nameAllowed(byte[] b, int off, int len) {
        return len > 0 && b[off] != '$'
                && !(len >= PREFIX_BYTES.length && Bytes.equals(b, off, PREFIX_BYTES.length, PREFIX_BYTES, 0, PREFIX_BYTES.length));
    }

    /** The next identity, stamped with the clock's current Unix seconds. */
    public String next() {
        int x = counter++;
        x = (x ^ (x >>> 16)) * 0x45D9F3B; // an odd multiplier and xor-shifts: a bijection on 32 bits
        x = (x ^ (x >>> 16)) * 0x45D9F3B;
        x ^= x >>> 16;
        return PREFIX + String.format("%08x", x) + "-" + Math.floorDiv(clock.epochNanos(), 1_000_000_000L);
    }
}
