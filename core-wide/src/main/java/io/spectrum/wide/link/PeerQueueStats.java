package io.spectrum.wide.link;

/**
 * A snapshot of one peer's outbound queue on a {@link QueuedLink}, for operators: frames queued now and
 * at most, frames the inner link took, frames dropped (the oldest pushed out by a full queue, plus what a
 * disconnect threw away), slow-consumer disconnects so far, and whether it is disconnected now.
 */
public record PeerQueueStats(int peer, int capacity, int depth, int peak, long sent, long dropped,
                             long disconnects, boolean disconnected) {

    @Override
    public String toString() {
        return "peer " + peer + ": depth " + depth + "/" + capacity + " peak " + peak + " sent " + sent
                + " dropped " + dropped + " disconnects " + disconnects + (disconnected ? " (disconnected)" : "");
    }
}
