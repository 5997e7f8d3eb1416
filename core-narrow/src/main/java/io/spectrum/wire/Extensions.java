package io.spectrum.wire;

/**
 * How a peer asks for Spectrum's extensions, and what a peer that did not ask is spared
 * (docs/extensions.md, "Announcement").
 *
 * <p>The announcement is one extra child at the end of a FWD request, after {@code src} (READ,
 * AWAIT) or after the payload (WRITE):
 *
 * <pre>
 * 0B 40 16 00  02 00 0C 00 "spectrum.ext"  01 00 02 00 &lt;u16 LE version&gt;
 * </pre>
 *
 * A libtracer v1 terminus reads a FWD positionally (op, dst, [FIELD], src, payload / timeout) and
 * never looks past that, so the child changes nothing for it; a v1 forwarder carries it verbatim.
 * A Spectrum node records the version per (link, peer) and from then on answers that peer with the
 * extended forms; every other peer is answered byte-for-byte v1.
 *
 * <p>A plain peer is also spared {@code spectrum.*} keys in a SETTINGS the node stores for itself
 * ({@code /$node/caps}): {@link #copyWithoutExtensionKeys} leaves those pairs out. Allocation-free.
 */
public final class Extensions {
    /** The SETTINGS key of the announcement. */
    private static final Spelling ANNOUNCE_KEY = Spelling.ascii("spectrum.ext");
    /** The SETTINGS key of a holder token (docs/extensions.md, "Holder token"). */
    private static final Spelling HOLD_KEY = Spelling.ascii("spectrum.hold");
    /** What {@link #holdToken} answers for a request without the hold pair. */
    public static final long NO_TOKEN = -1;
    /** The prefix of every key Spectrum adds to a SETTINGS (a plain v1 peer never sees one). */
    private static final byte[] KEY_PREFIX = {'s', 'p', 'e', 'c', 't', 'r', 'u', 'm', '.'};
    /** The extension set of docs/extensions.md this build speaks and announces. */
    public static final int VERSION = 1;
    /** Bytes of the announcement child. */
    public static final int ANNOUNCE_BYTES = 4 + 4 + ANNOUNCE_KEY.length() + 4 + 2;

    private final SettingsReader reader = new SettingsReader();

    /** Appends the announcement child (this build's {@link #VERSION}) to the container being written. */
    public static TlvWriter announce(TlvWriter w) {
        return w.begin(TlvType.SETTINGS).leaf(TlvType.NAME, ANNOUNCE_KEY).value(VERSION, 2).end();
    }

    /**
     * Writes the extensions map a node publishes at {@link Names#CAPS_PATH} ({@code SETTINGS{core 1,
     * rfc0035 1, topic 1}}, each a VALUE u16) into {@code b[off, off+cap)}: the one spelling every
     * core publishes.
     *
     * @return bytes written, or -1 when {@code cap} is too small
     */
    public static int writeCaps(byte[] b, int off, int cap) {
        return writeCaps(b, off, cap, 0);
    }

    /**
     * {@link #writeCaps(byte[], int, int)} of a node that keeps {@code backfillDepth} values per
     * declared vertex (0: none, the map as above), with {@code spectrum.backfill} VALUE u16 depth after
     * the three pairs (docs/extensions.md "Backfill"; a plain v1 peer is answered without it).
     */
    public static int writeCaps(byte[] b, int off, int cap, int backfillDepth) {
        TlvWriter cw = new TlvWriter(4).wrap(b, off, cap);
        cw.begin(TlvType.SETTINGS)
                .leaf(TlvType.NAME, Names.CORE).value(1, 2)
                .leaf(TlvType.NAME, Names.RFC0035).value(1, 2)
                .leaf(TlvType.NAME, Names.TOPIC_EXT).value(1, 2);
        if (backfillDepth > 0) {
            Backfill.capsPair(cw, backfillDepth);
        }
        cw.end();
        return cw.error() == WireError.OK ? cw.length() : -1;
    }

    /**
     * Appends the announcement child with the holder pair: {@code SETTINGS{NAME "spectrum.ext" VALUE
     * u16 VERSION, NAME "spectrum.hold" VALUE u64 token}}; token 0 says "I hold with a token and have
     * none yet" (the node answers a holding request with a challenge).
     */
    public static TlvWriter announce(TlvWriter w, long holdToken) {
        return w.begin(TlvType.SETTINGS).leaf(TlvType.NAME, ANNOUNCE_KEY).value(VERSION, 2)
                .leaf(TlvType.NAME, HOLD_KEY).value(holdToken, 8).end();
    }

    /**
     * {@link #announce(TlvWriter, long)} that also asks for the topic stamp on a READ's answer:
     * {@code SETTINGS{spectrum.ext, spectrum.hold, NAME "spectrum.topic" VALUE u8 1}} (docs/extensions.md,
     * "On a READ answer").
     */
    public static TlvWriter announceAskingStamp(TlvWriter w, long holdToken) {
        return w.begin(TlvType.SETTINGS).leaf(TlvType.NAME, ANNOUNCE_KEY).value(VERSION, 2)
                .leaf(TlvType.NAME, HOLD_KEY).value(holdToken, 8)
                .leaf(TlvType.NAME, Names.TOPIC).value(Names.TOPIC_STAMP, 1).end();
    }

    /**
     * {@link #announce(TlvWriter, long)} that also asks a READ's answer for the values the node kept
     * after sequence {@code after}: {@code SETTINGS{spectrum.ext, spectrum.hold, NAME "spectrum.backfill"
     * VALUE u64 after}} (docs/extensions.md, "Backfill"; {@link Backfill} reads it and the answer).
     */
    public static TlvWriter announceAskingBackfill(TlvWriter w, long holdToken, long after) {
        return w.begin(TlvType.SETTINGS).leaf(TlvType.NAME, ANNOUNCE_KEY).value(VERSION, 2)
                .leaf(TlvType.NAME, HOLD_KEY).value(holdToken, 8)
                .leaf(TlvType.NAME, Names.BACKFILL).value(after, 8).end();
    }

    /**
     * Appends the announcement child with the peer's name: {@code SETTINGS{NAME "spectrum.ext" VALUE
     * u16 VERSION, NAME "spectrum.name" NAME name}} (docs/extensions.md, "Peer name"); {@code name}
     * is UTF-8 of 1..{@link Names#PEER_NAME_MAX} bytes.
     */
    public static TlvWriter announce(TlvWriter w, byte[] name) {
        return w.begin(TlvType.SETTINGS).leaf(TlvType.NAME, ANNOUNCE_KEY).value(VERSION, 2)
                .leaf(TlvType.NAME, Names.PEER_NAME).leaf(TlvType.NAME, name).end();
    }

    /**
     * Appends the announcement child of a non-retained WRITE: {@code SETTINGS{NAME "spectrum.ext"
     * VALUE u16 VERSION, NAME "spectrum.retain" VALUE u8 0}} (docs/extensions.md, "Announcement key
     * spectrum.retain"). A v1 node ignores the child and retains the value as any write.
     */
    public static TlvWriter announceNotRetained(TlvWriter w) {
        return w.begin(TlvType.SETTINGS).leaf(TlvType.NAME, ANNOUNCE_KEY).value(VERSION, 2)
                .leaf(TlvType.NAME, Names.RETAIN).value(0, 1).end();
    }

    /** {@link #retain}: the write is retained (no key, or VALUE u8 1). */
    public static final int RETAINED = 1;
    /** {@link #retain}: the write is not retained (VALUE u8 0 in an announcing child). */
    public static final int NOT_RETAINED = 0;
    /** {@link #retain}: the key is there but its value is not one byte of 0 or 1 (a malformed flag). */
    public static final int RETAIN_MALFORMED = -1;

    /**
     * Whether a WRITE is retained, from the first SETTINGS among {@code first} and its following
     * siblings (the child after the payload): {@link #NOT_RETAINED} only when that child announces
     * ({@code spectrum.ext}) and holds {@code spectrum.retain} VALUE u8 0; {@link #RETAIN_MALFORMED}
     * when it announces and the key's VALUE (last occurrence) is not one byte of 0 or 1; otherwise
     * {@link #RETAINED}. A key outside an announcement is not read: only announcing peers use it.
     */
    public int retain(TlvIndex x, int first) {
        final int f = flag(x, first, Names.RETAIN);
        return f == FLAG_ABSENT || f == 1 ? RETAINED : f == 0 ? NOT_RETAINED : RETAIN_MALFORMED;
    }

    /**
     * Appends the announcement child of a WRITE that clears the vertex's value: {@code
     * SETTINGS{NAME "spectrum.ext" VALUE u16 VERSION, NAME "spectrum.clear" VALUE u8 notify}}
     * (docs/extensions.md, "Announcement key spectrum.clear"); the WRITE's payload is the empty STATUS.
     */
    public static TlvWriter announceClear(TlvWriter w, boolean notify) {
        return announceClear(w, null, notify);
    }

    /**
     * As {@link #announceClear(TlvWriter, boolean)}, the child also carrying the peer's name
     * ({@code spectrum.name} NAME {@code name}, before the clear key; null: none), as
     * {@link #announce(TlvWriter, byte[])} writes it: a request carries one announcement.
     */
    public static TlvWriter announceClear(TlvWriter w, byte[] name, boolean notify) {
        w.begin(TlvType.SETTINGS).leaf(TlvType.NAME, ANNOUNCE_KEY).value(VERSION, 2);
        if (name != null) {
            w.leaf(TlvType.NAME, Names.PEER_NAME).leaf(TlvType.NAME, name);
        }
        return w.leaf(TlvType.NAME, Names.CLEAR).value(notify ? 1 : 0, 1).end();
    }

    /** {@link #clear}: an ordinary write (no key). */
    public static final int NOT_CLEAR = -2;
    /** {@link #clear}: clear the value, no notice (VALUE u8 0). */
    public static final int CLEAR_SILENT = 0;
    /** {@link #clear}: clear the value and send the delete notice (VALUE u8 1). */
    public static final int CLEAR_NOTIFY = 1;
    /** {@link #clear}: the key is there but its value is not one byte of 0 or 1 (a malformed flag). */
    public static final int CLEAR_MALFORMED = -1;

    /**
     * Whether a WRITE clears its vertex, read as {@link #retain} reads its key: {@link #CLEAR_SILENT}
     * or {@link #CLEAR_NOTIFY} when the child announces and holds {@code spectrum.clear} VALUE u8 0 or
     * 1, {@link #CLEAR_MALFORMED} for any other value, else {@link #NOT_CLEAR}.
     */
    public int clear(TlvIndex x, int first) {
        final int f = flag(x, first, Names.CLEAR);
        return f == FLAG_ABSENT ? NOT_CLEAR : f == 0 ? CLEAR_SILENT : f == 1 ? CLEAR_NOTIFY : CLEAR_MALFORMED;
    }

    private static final int FLAG_ABSENT = -2;

    /**
     * The one-byte flag {@code key} of the first SETTINGS among {@code first} and its following
     * siblings, when that child announces ({@code spectrum.ext}): 0 or 1, -1 when it is there but not
     * one byte of 0 or 1, {@link #FLAG_ABSENT} when it is not there or the child does not announce.
     */
    private int flag(TlvIndex x, int first, Spelling key) {
        for (int c = first; c != TlvIndex.NONE; c = x.nextSibling(c)) {
            if (x.type(c) == TlvType.SETTINGS && x.isContainer(c)) {
                if (reader.wrap(x, c) != WireError.OK || reader.u16(ANNOUNCE_KEY, 0) == 0) {
                    return FLAG_ABSENT;
                }
                final int v = reader.find(key, TlvType.VALUE, SettingsReader.ANY_WIDTH);
                if (v == TlvIndex.NONE) {
                    return FLAG_ABSENT;
                }
                if (x.bodyLength(v) != 1) {
                    return -1;
                }
                final long b = x.valueAsLong(v);
                return b == 0 || b == 1 ? (int) b : -1;
            }
        }
        return FLAG_ABSENT;
    }

    /**
     * Appends a challenge, {@code SETTINGS{NAME "spectrum.hold" VALUE u64 token}}, after the STATUS
     * of an ERROR reply (a refused holding request of a peer that holds with a token).
     */
    public static TlvWriter challenge(TlvWriter w, long token) {
        return w.begin(TlvType.SETTINGS).leaf(TlvType.NAME, HOLD_KEY).value(token, 8).end();
    }

    /**
     * The holder token among {@code first} and its following siblings: the {@code spectrum.hold}
     * VALUE u64 of the first SETTINGS (a request's announcement child, or the SETTINGS after a
     * REPLY's STATUS); {@link #NO_TOKEN} when there is none or it is not exactly 8 bytes.
     */
    public long holdToken(TlvIndex x, int first) {
        for (int c = first; c != TlvIndex.NONE; c = x.nextSibling(c)) {
            if (x.type(c) == TlvType.SETTINGS && x.isContainer(c)) {
                if (reader.wrap(x, c) != WireError.OK) {
                    return NO_TOKEN;
                }
                return reader.u64(HOLD_KEY, NO_TOKEN);
            }
        }
        return NO_TOKEN;
    }

    /**
     * The version a FWD request announces: the winning {@code spectrum.ext} VALUE u16 of the first
     * SETTINGS among {@code first} and its following siblings (pass the child after {@code src}, or
     * after a WRITE's payload). 0 when there is none (a plain v1 request).
     */
    public int announced(TlvIndex x, int first) {
        for (int c = first; c != TlvIndex.NONE; c = x.nextSibling(c)) {
            if (x.type(c) == TlvType.SETTINGS && x.isContainer(c)) {
                if (reader.wrap(x, c) != WireError.OK) {
                    return 0;
                }
                return reader.u16(ANNOUNCE_KEY, 0);
            }
        }
        return 0;
    }

    /**
     * The topic stamp a READ asks for on its answer: the {@code spectrum.topic} VALUE u8 of the first
     * SETTINGS among {@code first} and its following siblings (the request's trailing child, the one
     * that also carries an announcement), 0 when there is none or it is not exactly 1 byte
     * (docs/extensions.md, "Delivery stamp": "On a READ answer").
     */
    public int topicAsked(TlvIndex x, int first) {
        for (int c = first; c != TlvIndex.NONE; c = x.nextSibling(c)) {
            if (x.type(c) == TlvType.SETTINGS && x.isContainer(c)) {
                if (reader.wrap(x, c) != WireError.OK) {
                    return 0;
                }
                final int v = reader.findValue(Names.TOPIC, 1);
                return v == TlvIndex.NONE ? 0 : (int) x.valueAsLong(v);
            }
        }
        return 0;
    }

    /**
     * The peer name a FWD request announces: the winning {@code spectrum.name} NAME entry of the first
     * SETTINGS among {@code first} and its following siblings, when its body is 1..{@link
     * Names#PEER_NAME_MAX} bytes of valid UTF-8; NONE otherwise (no name: the caller is known by its
     * address).
     */
    public int announcedName(TlvIndex x, int first) {
        for (int c = first; c != TlvIndex.NONE; c = x.nextSibling(c)) {
            if (x.type(c) == TlvType.SETTINGS && x.isContainer(c)) {
                if (reader.wrap(x, c) != WireError.OK) {
                    return TlvIndex.NONE;
                }
                final int v = reader.name(Names.PEER_NAME);
                if (v == TlvIndex.NONE) {
                    return TlvIndex.NONE;
                }
                final int n = x.bodyLength(v);
                return n >= 1 && n <= Names.PEER_NAME_MAX && Utf8.isValid(x.buffer(), x.bodyOffset(v), n)
                        ? v : TlvIndex.NONE;
            }
        }
        return TlvIndex.NONE;
    }

    /** True when the NAME body {@code b[off, off+len)} is a Spectrum key ({@code spectrum.*}). */
    public static boolean isExtensionKey(byte[] b, int off, int len) {
        return len > KEY_PREFIX.length && Bytes.equals(b, off, KEY_PREFIX.length, KEY_PREFIX, 0, KEY_PREFIX.length);
    }

    /**
     * Copies the trailer-less SETTINGS at {@code src[off, off+len)} into {@code out[o, o+cap)} without
     * its {@code spectrum.*} pairs (NAME key + the value after it). A key slot holding something
     * other than a NAME ends the pair walk (SETTINGS pair-walk rule): the rest is copied as it is.
     *
     * @return the copy's length; -1 when the input is not one well-formed SETTINGS container, or
     *         when the copy does not fit
     */
    public static int copyWithoutExtensionKeys(byte[] src, int off, int len, byte[] out, int o, int cap) {
        if (len < 4 || (src[off] & 0xFF) != TlvType.SETTINGS) {
            return -1;
        }
        final int opt = src[off + 1] & 0xFF;
        final int h = Opt.headerSize(opt);
        if ((opt & Opt.PL) == 0 || (opt & (Opt.TS | Opt.CR | Opt.RESERVED)) != 0 || len < h || cap < h) {
            return -1;
        }
        final long body = (opt & Opt.LL) != 0 ? Bytes.u32(src, off + 2) : Bytes.u16(src, off + 2);
        if (h + body != len) {
            return -1;
        }
        final int end = off + len;
        int p = off + h;
        int q = o + h;
        boolean pairs = true;
        while (p < end) {
            int k = childLength(src, p, end);
            if (k < 0) {
                return -1;
            }
            int take = k;
            boolean skip = false;
            if (pairs && (src[p] & 0xFF) == TlvType.NAME) {
                int vl = p + k < end ? childLength(src, p + k, end) : -1;
                if (vl < 0) {
                    pairs = false; // a key with no value after it: the walk stops here
                } else {
                    take = k + vl;
                    int ko = src[p + 1] & 0xFF;
                    int kl = (ko & Opt.LL) != 0 ? Bytes.i32(src, p + 2) : Bytes.u16(src, p + 2);
                    skip = isExtensionKey(src, p + Opt.headerSize(ko), kl);
                }
            } else {
                pairs = false;
            }
            if (!skip) {
                if (q - o + take > cap) {
                    return -1;
                }
                System.arraycopy(src, p, out, q, take);
                q += take;
            }
            p += take;
        }
        out[o] = src[off];
        out[o + 1] = (byte) opt;
        if ((opt & Opt.LL) != 0) {
            Bytes.put32(out, o + 2, q - o - h);
        } else {
            Bytes.put16(out, o + 2, q - o - h);
        }
        return q - o;
    }

    /** Whole wire length of the TLV at {@code b[p]} (header, body, trailers), or -1 if it overruns {@code end}. */
    private static int childLength(byte[] b, int p, int end) {
        if (end - p < 4) {
            return -1;
        }
        int opt = b[p + 1] & 0xFF;
        int h = Opt.headerSize(opt);
        if (end - p < h) {
            return -1;
        }
        long body = (opt & Opt.LL) != 0 ? Bytes.u32(b, p + 2) : Bytes.u16(b, p + 2);
        long total = h + body + Opt.tsSize(opt) + Opt.crcSize(opt);
        return total > end - p ? -1 : (int) total;
    }
}
