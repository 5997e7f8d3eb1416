package io.spectrum.hil.scenario;

import io.spectrum.hil.Check;
import io.spectrum.hil.HilFailure;
import io.spectrum.hil.client.BoardClient;
import io.spectrum.hil.client.Reply;
import io.spectrum.hil.client.Tlv;
import io.spectrum.hil.client.Wire;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Helpers over a remote vertex's {@code :subscribers} surface (RFC-0035). */
final class Subscribers {
    private Subscribers() {
    }

    /**
     * Reads {@code vertex:subscribers[]}: one element per slot position (RFC-0035 §5.2), an empty
     * STATUS for a hole. An empty list may come back as not_found or as an empty POINT.
     */
    static List<Tlv> list(BoardClient c, String vertex) {
        Reply r = c.read(vertex, Wire.subscribersAppend());
        if (r.isError() && r.errorCode() == WireError.PATH_NOT_FOUND) {
            return List.of();
        }
        Check.result(r, "read " + vertex + ":subscribers[]");
        Tlv p = r.payload();
        if (p == null) {
            return List.of();
        }
        Check.equal("POINT", TlvType.name(p.type()), "type of the :subscribers[] answer");
        return p.children();
    }

    /** Slot index of the subscription whose target is {@code route}, or -1. */
    static int slotOf(BoardClient c, String vertex, String route) {
        List<Tlv> l = list(c, vertex);
        for (int i = 0; i < l.size(); i++) {
            if (route.equals(targetOf(l.get(i)))) {
                return i;
            }
        }
        return -1;
    }

    static int requireSlot(BoardClient c, String vertex, String route) {
        int n = slotOf(c, vertex, route);
        if (n < 0) {
            throw new HilFailure("no slot with target " + route + " in " + vertex + ":subscribers[] = "
                    + list(c, vertex));
        }
        return n;
    }

    static String targetOf(Tlv element) {
        if (element.type() != TlvType.SUBSCRIBER) {
            return null;
        }
        Tlv p = element.first(TlvType.PATH);
        return p == null ? null : Wire.pathText(p.payload());
    }

    static boolean isHole(Tlv element) {
        return Arrays.equals(Wire.EMPTY_STATUS, element.encoded());
    }

    /** delivery_policy word of a SUBSCRIBER record (absent reads as 0). */
    static int policyOf(Tlv sub) {
        Tlv settings = sub.first(TlvType.SETTINGS);
        if (settings == null) {
            return 0;
        }
        Tlv v = settings.setting("delivery_policy");
        return v == null ? 0 : (int) v.asLong();
    }

    /** Clears a slot, ignoring a slot that is already gone (cleanup path). */
    static void clearQuietly(BoardClient c, String vertex, String route) {
        try {
            int n = slotOf(c, vertex, route);
            if (n >= 0) {
                c.write(vertex, Wire.subscribersAt(n), Wire.EMPTY_STATUS);
            }
        } catch (RuntimeException | AssertionError ignored) {
            // cleanup after a failure must not hide the failure
        }
    }

    /**
     * RFC-0035 §5.1: the rendering of {@code record} under live state {@code suspended}, built from
     * the record's bytes the way the host-side accessors do (subscriber_rendered), so the suite can
     * check a board's read-back and build the toggle record byte for byte.
     */
    static byte[] render(Tlv record, boolean suspended) {
        List<Tlv> kids = record.children();
        int settingsAt = -1;
        for (int i = 0; i < kids.size(); i++) {
            if (kids.get(i).type() == TlvType.SETTINGS) {
                settingsAt = i;
                break;
            }
        }
        boolean hasWord = settingsAt >= 0 && kids.get(settingsAt).setting("delivery_policy") != null;
        if (!hasWord && !suspended) {
            return record.encoded();
        }
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < kids.size(); i++) {
            Tlv k = kids.get(i);
            if (i == settingsAt) {
                out.add(renderSettings(k, suspended, hasWord));
            } else {
                out.add(k.encoded());
            }
        }
        if (settingsAt < 0) {
            out.add(Wire.build(w -> w.begin(TlvType.SETTINGS).raw(Wire.name("delivery_policy"))
                    .value(Wire.POLICY_SUSPENDED, 2).end()));
        }
        return Wire.build(w -> {
            w.begin(TlvType.SUBSCRIBER, record.opt() & 0x48);
            for (byte[] b : out) {
                w.raw(b);
            }
            w.end();
        });
    }

    private static byte[] renderSettings(Tlv settings, boolean suspended, boolean hasWord) {
        List<Tlv> kids = settings.children();
        // the last well-formed delivery_policy pair is the one the config reader honours
        int wordAt = -1;
        for (int i = 0; i + 1 < kids.size(); i += 2) {
            if (kids.get(i).type() != TlvType.NAME) {
                break;
            }
            if (kids.get(i).asText().equals("delivery_policy") && kids.get(i + 1).type() == TlvType.VALUE
                    && kids.get(i + 1).payload().length == 2) {
                wordAt = i + 1;
            }
        }
        final int at = wordAt;
        return Wire.build(w -> {
            w.begin(TlvType.SETTINGS, settings.opt() & 0x48);
            for (int i = 0; i < kids.size(); i++) {
                Tlv k = kids.get(i);
                if (i == at) {
                    int word = (int) k.asLong();
                    word = suspended ? (word | Wire.POLICY_SUSPENDED) : (word & ~Wire.POLICY_SUSPENDED);
                    w.value(word, 2);
                } else {
                    w.raw(k.encoded());
                }
            }
            if (!hasWord) {
                w.raw(Wire.name("delivery_policy")).value(Wire.POLICY_SUSPENDED, 2);
            }
            w.end();
        });
    }
}
