package io.spectrum.wire;

/**
 * The access rights of libtracer's ACL mask, the bits a vertex declaration grants
 * remote callers: READ covers read and await, WRITE a value write, SUBSCRIBE an append to or a
 * replace in {@code :subscribers}.
 */
public final class AccessMask {
    /** READ right (bit 0): read the vertex's value and await it. */
    public static final int READ = 0x01;
    /** WRITE right (bit 1): write the vertex's value. */
    public static final int WRITE = 0x02;
    /** SUBSCRIBE right (bit 2): append to or replace in the vertex's {@code :subscribers} list. */
    public static final int SUBSCRIBE = 0x04;
    /** The rights that make sense on a vertex: read, write and subscribe. */
    public static final int VERTEX_RIGHTS = READ | WRITE | SUBSCRIBE;

    private AccessMask() {
    }

    /** "rws" style text, '-' for a missing right: "r-s" is read and subscribe. */
    public static String text(int mask) {
        return new String(new char[] {
            (mask & READ) != 0 ? 'r' : '-', (mask & WRITE) != 0 ? 'w' : '-', (mask & SUBSCRIBE) != 0 ? 's' : '-'});
    }
}
