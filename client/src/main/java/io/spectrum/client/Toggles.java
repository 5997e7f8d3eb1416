package io.spectrum.client;

import io.spectrum.wire.SubscriberRenderer;
import io.spectrum.wire.TlvType;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The records a suspend or resume sends through the {@code [N]} toggle arm (RFC-0035 §4.4 arm 2):
 * the slot's rendering under the wanted state, by the wire's {@link SubscriberRenderer}, so the node
 * flips bit 9 and does not re-admit.
 *
 * <p>A resume must send the delivering-state rendering. For a record that carries its own
 * delivery_policy word that is the same bytes with bit 9 clear; for a word-less record suspended
 * by a toggle (rendering rule 3) it is the record without the pair the rendering added. The two
 * can render alike while suspended, so the rendering seen before a suspend made here is kept and
 * used for the resume; a slot suspended elsewhere is resumed by clearing bit 9 in its word.
 */
final class Toggles {
    private final SubscriberRenderer renderer = new SubscriberRenderer(256, 8);
    private final Map<String, byte[]> delivering = new HashMap<>();

    /** The record that sets {@code current} (the slot's rendering now) to {@code suspended}, or null. */
    byte[] record(String slotKey, byte[] current, boolean suspended) {
        if (current == null || current.length == 0 || (current[0] & 0xFF) != TlvType.SUBSCRIBER) {
            return null;
        }
        if (suspended) {
            byte[] r = render(current, true);
            if (r != null && !Arrays.equals(r, current)) {
                delivering.put(slotKey, current);
            }
            return r;
        }
        byte[] before = delivering.get(slotKey);
        byte[] expected = before == null ? null : render(before, true);
        return expected != null && Arrays.equals(expected, current) ? before : render(current, false);
    }

    /** The slot's state is settled (resumed, cleared or replaced): forget what was kept for it. */
    void forget(String slotKey) {
        delivering.remove(slotKey);
    }

    private byte[] render(byte[] rendering, boolean suspended) {
        byte[] out = new byte[rendering.length + SubscriberRenderer.MAX_GROWTH];
        int n = renderer.render(rendering, 0, rendering.length, suspended, out, 0, out.length);
        return n < 0 ? null : Arrays.copyOf(out, n);
    }
}
