package io.spectrum.counters.archfixture;

import io.spectrum.link.LinkStats;

/**
 * A read-only view whose figure sits in a package-visible mutable field, so a second writer in the
 * package could change it: the negative control of {@code CounterWritersTest}'s second rule.
 */
public final class LeakyLinkStats implements LinkStats {
    volatile long framesIn;
    private volatile long framesOut;

    @Override
    public long framesIn() {
        return framesIn;
    }

    @Override
    public long framesOut() {
        return framesOut;
    }

    @Override
    public long bytesIn() {
        return 0;
    }

    @Override
    public long bytesOut() {
        return 0;
    }

    @Override
    public long droppedCorrupt() {
        return 0;
    }

    @Override
    public long droppedOversize() {
        return 0;
    }

    @Override
    public long droppedInvalid() {
        return 0;
    }

    @Override
    public long droppedQueued() {
        return 0;
    }

    @Override
    public long droppedByOs() {
        return 0;
    }

    @Override
    public long sendRefused() {
        return 0;
    }

    @Override
    public long reconnects() {
        return 0;
    }

    @Override
    public long peersRefused() {
        return 0;
    }

    @Override
    public long peersEvicted() {
        return 0;
    }
}
