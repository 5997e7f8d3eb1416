package io.spectrum.hil.oracle;

import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Opt;
import io.spectrum.wire.StatusView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;

/**
 * The HIL's oracle view of what a board sent: a decoded TLV as a small immutable tree keeping the
 * raw opt byte and the exact encoded bytes (header, payload, trailers), so a scenario can state its
 * expectations byte for byte and structurally (which child, which type, which bytes) without going
 * through the client it is also exercising. Requests, matching and subscriptions are the one
 * client's ({@link io.spectrum.client.PeerClient}); this class only looks at frames.
 *
 * <p>Not an independent decoder: frames are decoded by the wire package's {@link FrameDecoder}, FWD
 * envelopes read by {@link FwdView} and error codes by {@link StatusView}. Used by the scenarios at
 * run time ({@code spectrum hil}), hence in main. Host side: allocates freely.
 */
public final class Tlv {
    private final int type;
    private final int opt;
    private final byte[] encoded;
    private final byte[] payload;
    private final List<Tlv> children;

    private Tlv(int type, int opt, byte[] encoded, byte[] payload, List<Tlv> children) {
        this.type = type;
        this.opt = opt;
        this.encoded = encoded;
        this.payload = payload;
        this.children = children;
    }

    /**
     * Decodes one whole frame the caller knows to be well formed (one it built, or one
     * {@link #refusal} accepted).
     *
     * @throws IllegalArgumentException with the codec's refusal when it is not
     */
    public static Tlv decode(byte[] buf, int off, int len) {
        TlvIndex idx = new TlvIndex(4096, 32);
        int rc = new FrameDecoder().decode(buf, off, len, idx);
        if (rc != WireError.OK) {
            throw new IllegalArgumentException("frame refused: " + WireError.identity(rc));
        }
        return of(idx, 0);
    }

    /** The codec's verdict on a whole frame: {@link WireError#OK} or its refusal code. */
    public static int refusal(byte[] frame) {
        return new FrameDecoder().decode(frame, 0, frame.length, new TlvIndex(4096, 32));
    }

    /** Decodes a whole well-formed frame; {@link IllegalArgumentException} with the codec's refusal otherwise. */
    public static Tlv decode(byte[] frame) {
        return decode(frame, 0, frame.length);
    }

    /** The subtree at entry {@code e} of a decoded index. */
    static Tlv of(TlvIndex idx, int e) {
        byte[] b = idx.buffer();
        byte[] enc = Arrays.copyOfRange(b, idx.start(e), idx.end(e));
        byte[] body = Arrays.copyOfRange(b, idx.bodyOffset(e), idx.bodyOffset(e) + idx.bodyLength(e));
        List<Tlv> kids = new ArrayList<>();
        if (idx.isContainer(e)) {
            for (int c = idx.firstChild(e); c != TlvIndex.NONE; c = idx.nextSibling(c)) {
                kids.add(of(idx, c));
            }
        }
        return new Tlv(idx.type(e), idx.opt(e), enc, body, Collections.unmodifiableList(kids));
    }

    /** The TLV's type code ({@code TlvType}). */
    public int type() {
        return type;
    }

    /** The raw opt byte as sent (its flags, PL among them). */
    public int opt() {
        return opt;
    }

    /** True when the PL flag marks it a container. */
    public boolean isContainer() {
        return (opt & Opt.PL) != 0;
    }

    /** The TLV exactly as it was on the wire (header, payload, trailers). */
    public byte[] encoded() {
        return encoded.clone();
    }

    /** The payload bytes (for a container: its children's bytes). */
    public byte[] payload() {
        return payload.clone();
    }

    /** The children in wire order (empty for a leaf); read-only. */
    public List<Tlv> children() {
        return children;
    }

    /** Child {@code n} (0-based), or null past the last. */
    public Tlv child(int n) {
        return n < children.size() ? children.get(n) : null;
    }

    /** First child of the given type, or null. */
    public Tlv first(int wantedType) {
        for (Tlv c : children) {
            if (c.type == wantedType) {
                return c;
            }
        }
        return null;
    }

    /** Unsigned little-endian integer of a payload of 1..8 bytes. */
    public long asLong() {
        long v = 0;
        for (int i = Math.min(payload.length, 8) - 1; i >= 0; i--) {
            v = (v << 8) | (payload[i] & 0xFF);
        }
        return v;
    }

    /** The payload as UTF-8 text. */
    public String asText() {
        return new String(payload, java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * SETTINGS lookup: the value child following a NAME key (last occurrence wins, as the
     * config reader does), or null.
     */
    public Tlv setting(String key) {
        Tlv found = null;
        for (int i = 0; i + 1 < children.size(); i += 2) {
            Tlv k = children.get(i);
            if (k.type != TlvType.NAME) {
                break;
            }
            if (k.asText().equals(key)) {
                found = children.get(i + 1);
            }
        }
        return found;
    }

    /** For an ERROR or a STATUS: the registry code of the first ERROR, or -1 (read by the wire's {@link StatusView}). */
    public int errorCode() {
        TlvIndex idx = new TlvIndex(4096, 32);
        if (new FrameDecoder().decode(encoded, 0, encoded.length, idx) != WireError.OK) {
            return -1;
        }
        return StatusView.errorCode(idx, 0, -1);
    }

    /**
     * This frame read by the wire's {@link FwdView} (the one FWD reader) over a fresh index, or null
     * when it is not a well-formed FWD.
     */
    public FwdView asFwd() {
        if (type != TlvType.FWD) {
            return null;
        }
        TlvIndex idx = new TlvIndex(4096, 32);
        FwdView f = new FwdView();
        if (new FrameDecoder().decode(encoded, 0, encoded.length, idx) != WireError.OK || f.wrap(idx, 0) != WireError.OK) {
            return null;
        }
        return f;
    }

    /** The exact encoded bytes as lower-case hex. */
    public String hex() {
        return HexFormat.of().formatHex(encoded);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        render(sb);
        return sb.toString();
    }

    private void render(StringBuilder sb) {
        sb.append(TlvType.name(type));
        if (isContainer()) {
            sb.append('{');
            for (int i = 0; i < children.size(); i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                children.get(i).render(sb);
            }
            sb.append('}');
        } else if (type == TlvType.NAME || type == TlvType.DESCRIPTION) {
            sb.append(" \"").append(asText()).append('"');
        } else if (type == TlvType.PATH) {
            sb.append(' ').append(Wire.pathText(payload));
        } else if (payload.length > 0) {
            sb.append(' ').append(HexFormat.of().formatHex(payload));
        }
    }
}
