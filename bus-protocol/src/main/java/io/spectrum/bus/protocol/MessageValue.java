package io.spectrum.bus.protocol;

import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.Opt;
import io.spectrum.wire.SettingsReader;
import io.spectrum.wire.Spelling;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.Utf8;
import io.spectrum.wire.WireError;
import java.util.Arrays;
import java.util.List;

/**
 * The value a bus message leaves on its topic's vertex (docs/bus.md, "A message's value on its
 * vertex"), so that every libtracer reader sees it:
 * <ul>
 *   <li>without attachments, the payload: a NAME (text) when it is UTF-8 without control characters
 *       other than tab, CR and LF, else a VALUE holding its bytes;</li>
 *   <li>with attachments, a SETTINGS: {@code NAME "payload"} then the payload as above, then for each
 *       attachment its name and its reference as text, {@code NAME "artifact ID.GENERATION LENGTH bytes
 *       sha256:DIGEST"}: an artifact reference is a value a vertex holds.</li>
 * </ul>
 * The one spelling of it: the bus writes it, reads a payload back from it, and {@code ValueFormat}
 * renders it.
 */
public final class MessageValue {
    /** The SETTINGS key of the payload in a message value with attachments. */
    public static final Spelling PAYLOAD = io.spectrum.wire.Names.MESSAGE_PAYLOAD;
    private static final String NO_DIGEST = "0".repeat(64);

    private MessageValue() {
    }

    /**
     * The value of a message with {@code payload} and the attachments {@code names} / {@code refs}
     * (in order, the same count; empty: none). A ref without a digest yet (a writer sealed on send) is
     * spelled with 64 zeros, the length its digest will have, so a value measured before the seal has
     * the size of the one after it.
     */
    public static byte[] of(byte[] payload, List<String> names, List<ArtifactRef> refs) {
        if (names.size() != refs.size()) {
            throw new IllegalArgumentException("one ref per attachment name");
        }
        int room = payload.length + 32;
        for (int i = 0; i < names.size(); i++) {
            room += names.get(i).length() + 160;
        }
        byte[] b = new byte[room];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        if (names.isEmpty()) {
            leaf(w, payload);
        } else {
            w.begin(TlvType.SETTINGS).leaf(TlvType.NAME, PAYLOAD);
            leaf(w, payload);
            for (int i = 0; i < names.size(); i++) {
                w.leaf(TlvType.NAME, Utf8.bytes(names.get(i))).leaf(TlvType.NAME, Utf8.bytes(reference(refs.get(i))));
            }
            w.end();
        }
        if (w.error() != WireError.OK) {
            throw new IllegalStateException("a message value did not fit its own buffer: " + WireError.identity(w.error()));
        }
        return Arrays.copyOf(b, w.length());
    }

    private static void leaf(TlvWriter w, byte[] payload) {
        w.leaf(isText(payload) ? TlvType.NAME : TlvType.VALUE, payload);
    }

    /** An artifact reference as a vertex shows it: {@code artifact 17.1 10485760 bytes sha256:…}. */
    public static String reference(ArtifactRef r) {
        String digest = r.digest() == null || r.digest().isEmpty() ? NO_DIGEST : r.digest();
        return "artifact " + r.artifactId() + "." + r.generation() + " " + r.length() + " bytes sha256:" + digest;
    }

    /** Whether {@code b} is UTF-8 text with no control character but tab, CR and LF (empty: not text). */
    public static boolean isText(byte[] b) {
        if (b.length == 0 || !Utf8.isValid(b, 0, b.length)) {
            return false;
        }
        for (byte x : b) {
            if (x >= 0 && x < 0x20 && x != '\t' && x != '\n' && x != '\r' || x == 0x7F) {
                return false;
            }
        }
        return true;
    }

    /**
     * The payload bytes a node value carries for a bus subscriber: a VALUE's or NAME's bytes, the
     * {@code payload} of a message value with attachments; any other TLV whole, as the wire carries it.
     */
    public static byte[] payload(byte[] tlv) {
        if (tlv.length < 4) {
            return tlv;
        }
        final int type = tlv[0] & 0xFF;
        if (type == TlvType.VALUE || type == TlvType.NAME) {
            int h = Opt.headerSize(tlv[1] & 0xFF);
            long n = Opt.bodyLength(tlv, 0);
            if (n >= 0 && h + n <= tlv.length) {
                return Arrays.copyOfRange(tlv, h, h + (int) n);
            }
            return tlv;
        }
        TlvIndex x = decoded(tlv, 0, tlv.length);
        if (x == null) {
            return tlv;
        }
        int v = payloadEntry(x);
        return v == TlvIndex.NONE ? tlv : Arrays.copyOfRange(tlv, x.bodyOffset(v), x.bodyOffset(v) + x.bodyLength(v));
    }

    /**
     * A message value with attachments as text, {@code PAYLOAD [NAME: artifact …] …} (a payload that
     * is not text as {@code <N bytes>}), or null when {@code b[off, +len)} is not one.
     */
    public static String render(byte[] b, int off, int len) {
        TlvIndex x = decoded(b, off, len);
        if (x == null) {
            return null;
        }
        int v = payloadEntry(x);
        if (v == TlvIndex.NONE) {
            return null;
        }
        StringBuilder s = new StringBuilder(x.type(v) == TlvType.NAME
                ? Utf8.toString(b, x.bodyOffset(v), x.bodyLength(v)) : "<" + x.bodyLength(v) + " bytes>");
        SettingsReader r = new SettingsReader();
        r.wrap(x, 0);
        for (int k = r.firstKey(); k != TlvIndex.NONE; k = r.nextKey(k)) {
            int a = r.valueOf(k);
            if (x.payloadEquals(k, PAYLOAD) || x.type(a) != TlvType.NAME) {
                continue;
            }
            s.append(" [").append(Utf8.toString(b, x.bodyOffset(k), x.bodyLength(k))).append(": ")
                    .append(Utf8.toString(b, x.bodyOffset(a), x.bodyLength(a))).append(']');
        }
        return s.toString();
    }

    /** {@code b[off, +len)} decoded when it is one SETTINGS container, else null. */
    private static TlvIndex decoded(byte[] b, int off, int len) {
        if (len < 4 || (b[off] & 0xFF) != TlvType.SETTINGS) {
            return null;
        }
        TlvIndex x = new TlvIndex(Math.max(64, len / 4 + 1), 8);
        if (new FrameDecoder().decode(b, off, len, x) != WireError.OK || !x.isContainer(0)) {
            return null;
        }
        return x;
    }

    /** The entry of the payload of the SETTINGS at entry 0 ({@code payload} first, a NAME or VALUE), or NONE. */
    private static int payloadEntry(TlvIndex x) {
        SettingsReader r = new SettingsReader();
        if (r.wrap(x, 0) != WireError.OK) {
            return TlvIndex.NONE;
        }
        int k = r.firstKey();
        if (k == TlvIndex.NONE || !x.payloadEquals(k, PAYLOAD)) {
            return TlvIndex.NONE;
        }
        int v = r.valueOf(k);
        return x.type(v) == TlvType.NAME || x.type(v) == TlvType.VALUE ? v : TlvIndex.NONE;
    }
}
