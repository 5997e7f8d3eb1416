package io.spectrum.node.api;

/**
 * The per-vertex rights hook for remote callers (link id, peer). The node's local host (the owner)
 * is never asked. Default: everyone may read and write.
 */
public interface AccessPolicy {
    /** READ on the vertex whose PATH body is {@code key[off, off+len)}. */
    default boolean canRead(byte[] key, int off, int len, int linkId, int peer) {
        return true;
    }

    /** WRITE on the vertex. */
    default boolean canWrite(byte[] key, int off, int len, int linkId, int peer) {
        return true;
    }
}
