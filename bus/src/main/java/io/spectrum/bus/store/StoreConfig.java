package io.spectrum.bus.store;

import io.spectrum.time.Clock;
import io.spectrum.time.SystemClock;

import java.nio.file.Path;

/**
 * The knobs of a {@link FileArtifactStore}: its directory, the total byte limit (default 512 MiB)
 * and the per-object limit (default 128 MiB), and the clock whose wall time goes into each run's
 * store id. Immutable; made by {@link #builder(Path)}, whose {@link Builder#build()} checks every
 * value and names the first bad one.
 *
 * <pre>{@code
 * StoreConfig cfg = StoreConfig.builder(Path.of("/dev/shm/spectrum-store")).totalLimitBytes(1L << 30).build();
 * try (FileArtifactStore store = FileArtifactStore.open(cfg)) { ... }
 * }</pre>
 */
public final class StoreConfig {
    /** 512 MiB, the default store total. */
    public static final long DEFAULT_TOTAL_LIMIT_BYTES = 512L << 20;
    /** 128 MiB, the default per-object limit. */
    public static final long DEFAULT_PER_OBJECT_LIMIT_BYTES = 128L << 20;

    private final Path root;
    private final long totalLimitBytes;
    private final long perObjectLimitBytes;
    private final Clock clock;

    private StoreConfig(Builder b) {
        root = b.root;
        totalLimitBytes = b.totalLimitBytes;
        perObjectLimitBytes = b.perObjectLimitBytes;
        clock = b.clock;
    }

    /** A builder for a store in {@code root}, starting from the default limits and the system clock. */
    public static Builder builder(Path root) {
        return new Builder(root);
    }

    /** The defaults for a store in {@code root}. */
    public static StoreConfig defaults(Path root) {
        return builder(root).build();
    }

    /** The store's directory (made 0700 when missing); every location is relative to it. */
    public Path root() {
        return root;
    }

    /** Bytes the store holds at most: sealed objects plus staging reservations (a seal briefly holds both). */
    public long totalLimitBytes() {
        return totalLimitBytes;
    }

    /** The largest artifact one allocation may ask for. */
    public long perObjectLimitBytes() {
        return perObjectLimitBytes;
    }

    /** The clock whose wall time is part of each run's store id. */
    public Clock clock() {
        return clock;
    }

    /** Collects the store's knobs; {@link #build()} checks them. */
    public static final class Builder {
        private final Path root;
        private long totalLimitBytes = DEFAULT_TOTAL_LIMIT_BYTES;
        private long perObjectLimitBytes = DEFAULT_PER_OBJECT_LIMIT_BYTES;
        private Clock clock = SystemClock.INSTANCE;

        private Builder(Path root) {
            this.root = root;
        }

        /** The store total in bytes (at least 1). */
        public Builder totalLimitBytes(long bytes) {
            totalLimitBytes = bytes;
            return this;
        }

        /** The largest single artifact in bytes (1 up to the total). */
        public Builder perObjectLimitBytes(long bytes) {
            perObjectLimitBytes = bytes;
            return this;
        }

        /** The clock for the store id's wall time (tests pass a manual one). */
        public Builder clock(Clock c) {
            clock = c;
            return this;
        }

        /** The checked config; {@link IllegalArgumentException} naming the first missing or out-of-range value. */
        public StoreConfig build() {
            if (root == null) {
                throw new IllegalArgumentException("root must be given");
            }
            if (clock == null) {
                throw new IllegalArgumentException("clock must be given");
            }
            if (totalLimitBytes < 1) {
                throw new IllegalArgumentException("totalLimitBytes must be at least 1, was " + totalLimitBytes);
            }
            if (perObjectLimitBytes < 1 || perObjectLimitBytes > totalLimitBytes) {
                throw new IllegalArgumentException("perObjectLimitBytes must be 1.." + totalLimitBytes + ", was "
                        + perObjectLimitBytes);
            }
            return new StoreConfig(this);
        }
    }
}
