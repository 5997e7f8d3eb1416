package io.spectrum.wire;

/**
 * One fixed byte spelling of the protocol (a field name, a SETTINGS key, a fixed empty TLV), as
 * {@link Names} publishes it: immutable, so a user can neither change the wire for everyone nor
 * needs a defensive copy. The wire classes read its bytes in place ({@link TlvWriter#leaf(int,
 * Spelling)}, {@link TlvIndex#payloadEquals(int, Spelling)}, {@link SettingsReader}'s keys); other
 * users compare against it, copy it out once ({@link #copy()}), or read it byte by byte.
 * Allocation-free except {@link #copy()} and {@link #toString()}.
 */
public final class Spelling {
    /** Never written after construction; read in place by this package only. */
    final byte[] bytes;

    private Spelling(byte[] bytes) {
        this.bytes = bytes;
    }

    /** The spelling of an ASCII string (each char one byte). */
    static Spelling ascii(String s) {
        byte[] b = new byte[s.length()];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) s.charAt(i);
        }
        return new Spelling(b);
    }

    /** A spelling of these bytes (copied). */
    static Spelling of(byte... b) {
        return new Spelling(b.clone());
    }

    /** Number of bytes in the spelling (for an ASCII name, its character count). */
    public int length() {
        return bytes.length;
    }

    /** Byte {@code i} of the spelling, {@code 0 <= i < length()}. */
    public byte byteAt(int i) {
        return bytes[i];
    }

    /** A new array holding the bytes (for an API that takes an array; its owner may keep it). */
    public byte[] copy() {
        return bytes.clone();
    }

    /** Copies the bytes into {@code dst} at {@code off}. */
    public void copyTo(byte[] dst, int off) {
        System.arraycopy(bytes, 0, dst, off, bytes.length);
    }

    /** True when {@code b[off, off+len)} holds exactly these bytes. */
    public boolean matches(byte[] b, int off, int len) {
        return Bytes.equals(b, off, len, bytes, 0, bytes.length);
    }

    /** True when {@code b} holds exactly these bytes. */
    public boolean matches(byte[] b) {
        return matches(b, 0, b.length);
    }

    /** The bytes as ISO-8859-1 text (the names are ASCII). */
    @Override
    public String toString() {
        char[] c = new char[bytes.length];
        for (int i = 0; i < c.length; i++) {
            c[i] = (char) (bytes[i] & 0xFF);
        }
        return new String(c);
    }
}
