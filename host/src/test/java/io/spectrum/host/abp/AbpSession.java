package io.spectrum.host.abp;

import io.spectrum.wide.TopicInfo;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * One ABP connection, whichever transport carries it ({@link AbpFabric}). Topics are node paths
 * (ABP's {@code sysmon.metrics} is {@code /sysmon/metrics}); values are value TLVs (the inner
 * message); a return code is {@link io.spectrum.wire.WireError#OK} or the node's typed refusal (ABP's
 * rc 10). What the connection receives is recorded in arrival order: {@link #deliveries()} as
 * {@code "path hex seq=N[ stale][ deleted]"}, {@link #notices()} (the node's active / idle notices to
 * a last publisher) as {@code "path active|idle n"}.
 */
interface AbpSession extends AutoCloseable {
    /** The identity the node knows this connection by (its name, or an anonymous {@code anon-…} id). */
    String identity();

    /** Publishes {@code tlv} to {@code topic}, retained or not; asks for the active / idle notices. */
    int publish(String topic, byte[] tlv, boolean retain);

    /** Subscribes to {@code topic} with the replay of its retained value (the durability bit), stamped. */
    int subscribe(String topic);

    /** Ends this connection's subscription to {@code topic}; OK when it had none. */
    int unsubscribe(String topic);

    /** The number of subscribers of {@code topic} (0 for an absent one). */
    int subscriberCount(String topic);

    /** The topics under {@code prefix} (a path; {@code /} for all) that hold a value or a subscriber, sorted. */
    List<TopicInfo> list(String prefix);

    /** Clears {@code topic}'s retained value, with the delete notice to its subscribers when {@code notify}. */
    int clear(String topic, boolean notify);

    /** Reads {@code topic}: its value, the vertex's sequence and stale mark, or the refusal. */
    Read read(String topic);

    /** What this connection received so far (a copy). */
    List<String> deliveries();

    /** The active / idle notices this connection received so far (a copy). */
    List<String> notices();

    /** Polls until {@code done} holds; fails the test after a guard of seconds (a hang, not a timing assertion). */
    void pumpUntil(BooleanSupplier done, String what);

    /** Polls for a bounded quiet window (at most ~150 ms; nothing to wait for in-process). */
    void quiet();

    /** Closes the connection and waits until the node has seen it go. */
    @Override
    void close();

    /** A read's outcome: {@code value} null when refused; {@code seq} and {@code stale} of the held value. */
    record Read(int rc, byte[] value, long seq, boolean stale) {
    }
}
