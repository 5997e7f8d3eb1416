package io.spectrum.bus.store;

/**
 * The file work of one seal, between {@link ArtifactStore#beginSeal} and
 * {@link ArtifactStore#finishSeal}: {@link #run()} copies the staged bytes into the sealed file and
 * computes their SHA-256. It touches files and its own fields only, never the store's state, so it
 * may run on any thread while the bus thread goes on; it runs at most once and records its outcome
 * (the digest, or the refusal) for the finish step instead of throwing.
 */
public interface SealJob extends Runnable {
    /** The artifact this job seals. */
    long artifactId();

    /** Copies and hashes; never throws (a failure is the finish step's refusal). */
    @Override
    void run();
}
