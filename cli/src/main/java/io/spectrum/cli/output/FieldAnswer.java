package io.spectrum.cli.output;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.FrameDecoder;
import io.spectrum.wire.SettingsReader;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.Utf8;
import io.spectrum.wire.WireError;

import java.util.HexFormat;

/**
 * The answer to a READ of a field ({@code PATH:settings.app}, {@code PATH:schema},
 * {@code PATH:settings.app.unit}) as people and scripts read it: a SETTINGS as its
 * {@code key = value} pairs (nested namespaces indented), a POINT as its children, a NAME as text,
 * a VALUE as its unsigned integer; a SETTINGS that is a vertex declaration ends with its summary
 * line ({@link VertexSchema#toString()}, e.g. {@code VALUE i16 Cel x0.01 r-s}).
 */
public final class FieldAnswer {
    private static final String INDENT = "  ";

    private final TlvIndex idx = new TlvIndex();
    private final boolean decoded;

    FieldAnswer(byte[] tlv) {
        decoded = tlv != null && new FrameDecoder().decode(tlv, 0, tlv.length, idx) == WireError.OK;
    }

    /** The text after {@code PATH:field = }: one line for a leaf, else a newline and the indented pairs. */
    public static String text(byte[] tlv) {
        FieldAnswer a = new FieldAnswer(tlv);
        if (!a.decoded) {
            return ClientOutput.text(tlv).text();
        }
        if (!a.idx.isContainer(0)) {
            return a.leaf(0);
        }
        StringBuilder sb = new StringBuilder(TlvType.name(a.idx.type(0)));
        a.children(0, 1, sb);
        VertexSchema s = a.idx.type(0) == TlvType.SETTINGS ? VertexSchema.fromSettings(tlv, 0, tlv.length) : null;
        if (s != null) {
            sb.append('\n').append(INDENT).append("(declaration: ").append(s).append(')');
        }
        return sb.toString();
    }

    /** The answer as JSON: a SETTINGS as an object, a POINT as an array, leaves as strings and numbers. */
    public static JsonNode json(byte[] tlv) {
        FieldAnswer a = new FieldAnswer(tlv);
        if (!a.decoded) {
            return ClientOutput.JSON.getNodeFactory().textNode(ClientOutput.text(tlv).text());
        }
        return a.json(0);
    }

    private void children(int e, int depth, StringBuilder sb) {
        if (idx.type(e) == TlvType.SETTINGS) {
            SettingsReader r = new SettingsReader();
            r.wrap(idx, e);
            for (int k = r.firstKey(); k != TlvIndex.NONE; k = r.nextKey(k)) {
                int v = r.valueOf(k);
                sb.append('\n').append(INDENT.repeat(depth)).append(leaf(k)).append(" = ");
                entry(v, depth, sb);
            }
            return;
        }
        for (int c = idx.firstChild(e); c != TlvIndex.NONE; c = idx.nextSibling(c)) {
            sb.append('\n').append(INDENT.repeat(depth));
            entry(c, depth, sb);
        }
    }

    private void entry(int e, int depth, StringBuilder sb) {
        if (idx.isContainer(e) && idx.firstChild(e) == TlvIndex.NONE) {
            sb.append(TlvType.name(idx.type(e))).append(" {}");
        } else if (idx.isContainer(e)) {
            sb.append(TlvType.name(idx.type(e)));
            children(e, depth + 1, sb);
        } else {
            sb.append(leaf(e));
        }
    }

    private String leaf(int e) {
        final int n = idx.bodyLength(e);
        switch (idx.type(e)) {
            case TlvType.NAME:
                return Utf8.toString(idx.buffer(), idx.bodyOffset(e), n);
            case TlvType.VALUE:
                return n >= 1 && n <= 8 ? Long.toUnsignedString(idx.valueAsLong(e)) : hex(e);
            default:
                return TlvType.name(idx.type(e)) + (n == 0 ? "" : " " + hex(e));
        }
    }

    private String hex(int e) {
        return HexFormat.of().formatHex(idx.buffer(), idx.bodyOffset(e), idx.bodyOffset(e) + idx.bodyLength(e));
    }

    private JsonNode json(int e) {
        if (!idx.isContainer(e)) {
            if (idx.type(e) == TlvType.VALUE && idx.bodyLength(e) >= 1 && idx.bodyLength(e) <= 8) {
                return ClientOutput.JSON.getNodeFactory().numberNode(
                        new java.math.BigInteger(Long.toUnsignedString(idx.valueAsLong(e))));
            }
            return ClientOutput.JSON.getNodeFactory().textNode(leaf(e));
        }
        if (idx.type(e) == TlvType.SETTINGS) {
            ObjectNode o = ClientOutput.JSON.createObjectNode();
            SettingsReader r = new SettingsReader();
            r.wrap(idx, e);
            for (int k = r.firstKey(); k != TlvIndex.NONE; k = r.nextKey(k)) {
                o.set(leaf(k), json(r.valueOf(k)));
            }
            return o;
        }
        ArrayNode a = ClientOutput.JSON.createArrayNode();
        for (int c = idx.firstChild(e); c != TlvIndex.NONE; c = idx.nextSibling(c)) {
            a.add(json(c));
        }
        return a;
    }

    /** A field answer is shown decoded; a plain value answer by its declaration. */
    static boolean isField(String arg) {
        return arg.indexOf(':') >= 0;
    }
}
