package io.spectrum.bus.store;

import io.spectrum.stats.BoundedResource;

import java.nio.file.Path;
import io.spectrum.bus.protocol.ArtifactRef;
import io.spectrum.bus.protocol.BusException;

/**
 * Where artifacts' bytes live. The bus decides <em>when</em> an object may go (its
 * ownership roots); the store only keeps bytes, quotas and files. Called from one thread (the
 * bus's); an implementation does file I/O but never waits indefinitely. The one exception is a
 * {@link SealJob}'s run, the bulk copy and hash of a seal, which may run on another thread
 * between {@link #beginSeal} and {@link #finishSeal} on the store's thread.
 *
 * <p>Lifecycle: {@link #allocate} reserves quota and makes a private staging file of the
 * requested length; the writer writes it; {@link #seal} (or its three steps) makes an immutable
 * sealed object of exactly those bytes (a writer that kept a writable handle to the staging file cannot change
 * it afterwards) and checks length and digest; readers open {@link #readLocation} read-only and
 * map it; {@link #collect} removes the object when its last root goes (a reader that has it
 * mapped keeps reading its bytes until it unmaps); {@link #abandon} drops a staging file whose
 * writer went away. After a crash and restart, opening the store on the same directory removes
 * every file of the previous run and starts with a new {@link #storeId()}: its stats are zero.
 *
 * <p>Its figures are a {@link BoundedResource}'s, in bytes: {@link #capacity()} the total byte limit
 * that applies, {@link #inUse()} the bytes held (sealed objects plus staging reservations),
 * {@link #peak()} the most held at once since the store opened, {@link #refused()} the allocations
 * and seals refused at a quota, {@link #dropped()} 0 (an object goes only when its last root goes).
 */
public interface ArtifactStore extends BoundedResource, AutoCloseable {
    /** This store run's id: a new one each time the store is opened, so old refs are gone. */
    String storeId();

    /** The directory every location is relative to. */
    Path root();

    /**
     * Reserves {@code byteLength} bytes and makes the staging file.
     *
     * @throws BusException INVALID_ENVELOPE for a length below 1; QUOTA_EXCEEDED past the
     *     per-object or total limit; STORE_FAILURE when the file cannot be made
     */
    StagedArtifact allocate(long byteLength, String contentType) throws BusException;

    /**
     * Seals a staged artifact on the calling thread: {@link #beginSeal}, the job's run, then
     * {@link #finishSeal}. Its bytes become an immutable object.
     *
     * @param digest the expected SHA-256 (lower-case hex), or null to accept what was written
     * @throws BusException INVALID_ENVELOPE for a {@code digest} that is not 64 lower-case hex
     *     digits (nothing changes); ARTIFACT_GONE for an unknown id or generation (or one already
     *     sealed or being sealed); ARTIFACT_MISMATCH when the staged bytes are not exactly the
     *     allocated length or do not have {@code digest} (the staging is removed); QUOTA_EXCEEDED
     *     when there is no room for the sealed copy; STORE_FAILURE on I/O failure
     */
    default ArtifactRef seal(long artifactId, long generation, String digest) throws BusException {
        SealJob job = beginSeal(artifactId, generation, digest);
        job.run();
        return finishSeal(job);
    }

    /**
     * The first step of a seal, on the store's thread: checks the digest's syntax, that the
     * staging exists, is this generation and is neither sealed nor being sealed, and holds quota
     * for the sealed copy; then marks the staging as being sealed and returns the job that does
     * the file work ({@link SealJob#run()}, on any thread). Every job begun is ended by exactly one
     * {@link #finishSeal} or {@link #cancelSeal}.
     *
     * @throws BusException INVALID_ENVELOPE, ARTIFACT_GONE or QUOTA_EXCEEDED as {@link #seal}; nothing changes
     */
    SealJob beginSeal(long artifactId, long generation, String digest) throws BusException;

    /**
     * The last step of a seal whose job has run, on the store's thread: applies its outcome as
     * {@link #seal} does (the staging goes and the object is sealed, or the refusal). A staging
     * abandoned while its job ran is ARTIFACT_GONE, and the copy is removed.
     *
     * @throws BusException the refusals of {@link #seal} (except INVALID_ENVELOPE and QUOTA_EXCEEDED)
     */
    ArtifactRef finishSeal(SealJob job) throws BusException;

    /**
     * Rolls a begun seal back, on the store's thread, after its job has run or when it never will:
     * the copy and its quota hold go, and the staging (if not abandoned meanwhile) stays unsealed,
     * as before {@link #beginSeal}. An ended job is ignored.
     */
    void cancelSeal(SealJob job);

    /**
     * Checks that {@code ref} names a live sealed object of this store.
     *
     * @throws BusException ARTIFACT_GONE (other store id, unknown or collected id, other
     *     generation); ARTIFACT_UNSEALED (still staging); ARTIFACT_MISMATCH (length or digest differ)
     */
    void check(ArtifactRef ref) throws BusException;

    /** Where a reader opens the sealed object, relative to {@link #root()} (valid until collected). */
    String readLocation(long artifactId) throws BusException;

    /** Drops a staging file whose writer went away; unknown ids are ignored. */
    void abandon(long artifactId);

    /** Removes a sealed object (its last root went); unknown ids are ignored. */
    void collect(long artifactId);

    /** Live sealed objects. */
    int objects();

    /** Releases the store; with {@code close()} the files of this run are removed. */
    @Override
    void close();
}
