package io.spectrum.bus.state;

import io.spectrum.wire.BusError;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.store.StagedArtifact;

/**
 * One connection's owners: issued-serial watermarks for deliveries
 * ({@code dlv-}) and holds/writers ({@code own-}) plus the map of live ones, so a retired id
 * releases nothing and a never-issued or wrong-kind id is refused without a tombstone per id.
 */
final class Owners {
    static final String DELIVERY = "dlv";
    static final String HOLD = "own";
    private final Map<String, Owner> live = new LinkedHashMap<>();
    private long deliveriesIssued;
    private long holdsIssued;

    int size() {
        return live.size();
    }

    Owner get(String id) {
        return id == null ? null : live.get(id);
    }

    Owner newDelivery(Owner.Kind kind, List<SealedObject> objects) {
        Owner o = new Owner(Names.serial(DELIVERY, ++deliveriesIssued), kind);
        o.objects = objects;
        live.put(o.id, o);
        return o;
    }

    Owner newWriter(StagedArtifact staged, String contentType) {
        Owner o = new Owner(Names.serial(HOLD, ++holdsIssued), Owner.Kind.WRITER);
        o.staged = staged;
        o.contentType = contentType;
        live.put(o.id, o);
        return o;
    }

    Owner newHold(SealedObject object) {
        Owner o = new Owner(Names.serial(HOLD, ++holdsIssued), Owner.Kind.HOLD);
        o.objects = List.of(object);
        live.put(o.id, o);
        return o;
    }

    void remove(Owner o) {
        live.remove(o.id);
    }

    /**
     * Checks a release batch and returns its distinct live owners; nothing changes.
     *
     * @param prefix {@link #DELIVERY} for {@code delivery.consumed}, {@link #HOLD} for
     *     {@code artifact.release}
     * @throws BusException INVALID_ENVELOPE for a batch outside 1..64 or a malformed id;
     *     OWNER_INVALID (whole batch) for an id of the other kind or one never issued
     */
    List<Owner> batch(String prefix, List<String> ids) throws BusException {
        if (ids == null || ids.isEmpty() || ids.size() > 64) {
            throw Names.invalid("a release batch holds 1..64 ids");
        }
        long issued = prefix.equals(DELIVERY) ? deliveriesIssued : holdsIssued;
        LinkedHashSet<String> distinct = new LinkedHashSet<>();
        for (String id : ids) {
            long n = Names.serialNumber(id);
            if (!Names.hasPrefix(prefix, id)) {
                throw new BusException(BusError.OWNER_INVALID, id + " is not a " + prefix + "- id");
            }
            if (Long.compareUnsigned(n, issued) > 0) {
                throw new BusException(BusError.OWNER_INVALID, id + " was never issued on this connection");
            }
            distinct.add(id);
        }
        List<Owner> out = new ArrayList<>();
        for (String id : distinct) {
            Owner o = live.get(id);
            if (o != null) {
                out.add(o);
            }
        }
        return out;
    }

    /** True when {@code id} is a {@code dlv-} id this connection issued (live or retired). */
    boolean deliveryIssued(String id) throws BusException {
        long n = Names.serialNumber(id);
        return Names.hasPrefix(DELIVERY, id) && Long.compareUnsigned(n, deliveriesIssued) <= 0;
    }

    List<Owner> all() {
        return new ArrayList<>(live.values());
    }
}
