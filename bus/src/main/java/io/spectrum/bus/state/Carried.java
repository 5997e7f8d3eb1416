package io.spectrum.bus.state;

import java.util.ArrayList;
import java.util.List;
import io.spectrum.bus.protocol.Attachment;

/**
 * An accepted message body the bus keeps until it is delivered: the payload (opaque bytes), the
 * named attachments, the distinct objects they root (one object named twice holds one root), and
 * the byte size of the delivery envelope built from it.
 */
final class Carried {
    record Named(String name, SealedObject object) {
    }

    final byte[] payload;
    final List<Named> named;
    final List<SealedObject> objects;
    final int deliveryBytes;

    Carried(byte[] payload, List<Named> named, List<SealedObject> objects, int deliveryBytes) {
        this.payload = payload;
        this.named = List.copyOf(named);
        this.objects = List.copyOf(objects);
        this.deliveryBytes = deliveryBytes;
    }

    /** The sum of the distinct objects' lengths. */
    long artifactBytes() {
        long n = 0;
        for (SealedObject o : objects) {
            n += o.length();
        }
        return n;
    }

    /** The attachments as the recipient sees them: every owner id is its delivery id. */
    List<Attachment> attachmentsFor(String deliveryId) {
        List<Attachment> out = new ArrayList<>(named.size());
        for (Named n : named) {
            out.add(new Attachment(n.name(), n.object().ref, deliveryId));
        }
        return List.copyOf(out);
    }
}
