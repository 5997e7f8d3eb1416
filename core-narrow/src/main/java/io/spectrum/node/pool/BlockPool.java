package io.spectrum.node.pool;

import io.spectrum.stats.BoundedResource;
import io.spectrum.stats.ResourceCounter;

/**
 * A fixed byte arena carved into power-of-two blocks (16 B up), with one free list per size class.
 * Sized once; an allocation that finds neither a free block of its class nor untouched room is
 * refused (-1), never grown. A block that is rewritten with a value of the same class is reused in
 * place, so a steady stream of same-sized writes never touches the free lists.
 *
 * <p>Free blocks link through their first four bytes, so the lists cost no memory of their own.
 */
public final class BlockPool {
    private static final int MIN_CLASS = 4;
    private static final int CLASSES = 31;

    private final byte[] mem;
    private final int[] freeHead = new int[CLASSES];
    private int bump;
    /** Counts bytes: capacity is the arena, in use is the sum of the blocks handed out. */
    private final ResourceCounter resource;

    /** A pool of {@code capacity} bytes, allocated here once, reported as {@code name} in stats. */
    public BlockPool(String name, int capacity) {
        mem = new byte[capacity];
        resource = new ResourceCounter(name, capacity);
        for (int i = 0; i < CLASSES; i++) {
            freeHead[i] = -1;
        }
    }

    /**
     * The arena itself: a block handed out by {@link #alloc} is {@code memory()[off,
     * off+blockSize(size))}. Not a copy; only the block's owner writes its bytes.
     */
    public byte[] memory() {
        return mem;
    }

    /** The pool in the BoundedResource vocabulary (bytes). */
    public BoundedResource resource() {
        return resource;
    }

    /** Size class (log2 of the block size) for {@code size} bytes. */
    public static int classOf(int size) {
        if (size <= 1 << MIN_CLASS) {
            return MIN_CLASS;
        }
        return 32 - Integer.numberOfLeadingZeros(size - 1);
    }

    /** Block size that holds {@code size} bytes. */
    public static int blockSize(int size) {
        return 1 << classOf(size);
    }

    /** Allocates a block for {@code size} bytes; returns its offset or -1 (refusal counted). */
    public int alloc(int size) {
        final int cls = classOf(size);
        if (cls >= CLASSES) {
            resource.countRefused();
            return -1;
        }
        final int bs = 1 << cls;
        int off = freeHead[cls];
        if (off >= 0) {
            freeHead[cls] = readInt(off);
        } else if (mem.length - bump >= bs) {
            off = bump;
            bump += bs;
        } else {
            resource.countRefused();
            return -1;
        }
        resource.taken(bs);
        return off;
    }

    /** Returns a block allocated for {@code size} bytes. */
    public void free(int off, int size) {
        final int cls = classOf(size);
        writeInt(off, freeHead[cls]);
        freeHead[cls] = off;
        resource.returned(1 << cls);
    }

    private int readInt(int off) {
        return (mem[off] & 0xFF) | (mem[off + 1] & 0xFF) << 8 | (mem[off + 2] & 0xFF) << 16 | (mem[off + 3] & 0xFF) << 24;
    }

    private void writeInt(int off, int v) {
        mem[off] = (byte) v;
        mem[off + 1] = (byte) (v >>> 8);
        mem[off + 2] = (byte) (v >>> 16);
        mem[off + 3] = (byte) (v >>> 24);
    }
}
