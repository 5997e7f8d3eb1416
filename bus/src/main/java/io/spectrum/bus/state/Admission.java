package io.spectrum.bus.state;

import io.spectrum.wire.BusError;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import io.spectrum.bus.protocol.ArtifactRef;
import io.spectrum.bus.protocol.Attachment;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.store.StagedArtifact;

/**
 * The artifact part of admitting a publish, call or reply: each
 * attachment must name a live owner of the <em>sending</em> connection that roots exactly that
 * sealed object, or the sender's own unsealed writer (seal-on-send: the
 * writer is sealed when the message is accepted and becomes a hold). {@link #check} changes
 * nothing; {@link #commit} seals the pending writers and returns the body to keep. Sealing comes
 * after every other admission check, so a publish refused for room or quota leaves the writer
 * unsealed; only a seal the store itself refuses fails the operation at that point (a writer
 * sealed earlier in the same list then stays sealed, as the sender's hold).
 */
final class Admission {
    static final int MAX_ATTACHMENTS = 32;

    /** One checked attachment: a sealed object, or a writer to seal on send. */
    private record Item(String name, SealedObject object, Owner writer, String digest) {
    }

    private final List<Item> items;
    private final String storeId;
    private final long distinctBytes;

    private Admission(List<Item> items, String storeId, long distinctBytes) {
        this.items = items;
        this.storeId = storeId;
        this.distinctBytes = distinctBytes;
    }

    /**
     * Checks every attachment, in order: list shape (at most 32, unique Id names) →
     * store id (ARTIFACT_GONE) → a live owner on this connection (OWNER_INVALID) → the owner
     * roots that object or is its unsealed writer → exact ref (ARTIFACT_GONE for another
     * generation, ARTIFACT_MISMATCH for another length or digest).
     */
    static Admission check(Owners owners, Roots roots, List<Attachment> attachments) throws BusException {
        List<Attachment> list = attachments == null ? List.of() : attachments;
        if (list.size() > MAX_ATTACHMENTS) {
            throw Names.invalid("at most " + MAX_ATTACHMENTS + " attachments");
        }
        Set<String> names = new HashSet<>();
        for (Attachment a : list) {
            if (a == null || a.ref() == null) {
                throw Names.invalid("an attachment needs a name, a ref and an owner id");
            }
            Names.id("attachment name", a.name());
            if (!names.add(a.name())) {
                throw Names.invalid("duplicate attachment name " + a.name());
            }
            Names.id("owner id", a.ownerId());
        }
        String storeId = roots.store().storeId();
        List<Item> items = new ArrayList<>();
        Set<Object> distinct = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        long bytes = 0;
        for (Attachment a : list) {
            ArtifactRef ref = a.ref();
            if (!ref.storeId().equals(storeId)) {
                throw new BusException(BusError.ARTIFACT_GONE, "ref of another store run: " + ref.storeId());
            }
            Owner owner = owners.get(a.ownerId());
            if (owner == null) {
                throw new BusException(BusError.OWNER_INVALID, a.ownerId() + " is not a live owner of this connection");
            }
            Item item;
            if (owner.kind == Owner.Kind.WRITER) {
                StagedArtifact s = owner.staged;
                if (s.artifactId() != ref.artifactId()) {
                    throw new BusException(BusError.OWNER_INVALID, a.ownerId() + " does not own artifact " + ref.artifactId());
                }
                if (s.generation() != ref.generation()) {
                    throw new BusException(BusError.ARTIFACT_GONE, "artifact " + ref.artifactId() + " has another generation");
                }
                if (s.byteLength() != ref.length()) {
                    throw new BusException(BusError.ARTIFACT_MISMATCH, "ref length differs from the allocation");
                }
                item = new Item(a.name(), null, owner, ref.digest().isEmpty() ? null : ref.digest());
                if (distinct.add(owner)) {
                    bytes += s.byteLength();
                }
            } else {
                SealedObject o = owner.find(ref.artifactId());
                if (o == null) {
                    if (roots.object(ref.artifactId()) == null) {
                        throw new BusException(BusError.ARTIFACT_GONE, "no live artifact " + ref.artifactId());
                    }
                    throw new BusException(BusError.OWNER_INVALID, a.ownerId() + " does not own artifact " + ref.artifactId());
                }
                exact(o.ref, ref);
                item = new Item(a.name(), o, null, null);
                if (distinct.add(o)) {
                    bytes += o.length();
                }
            }
            items.add(item);
        }
        return new Admission(items, storeId, bytes);
    }

    static void exact(ArtifactRef have, ArtifactRef given) throws BusException {
        if (have.generation() != given.generation()) {
            throw new BusException(BusError.ARTIFACT_GONE, "artifact " + given.artifactId() + " has another generation");
        }
        if (have.length() != given.length() || !have.digest().equals(given.digest())) {
            throw new BusException(BusError.ARTIFACT_MISMATCH, "ref does not match artifact " + given.artifactId());
        }
    }

    /** The bytes of the distinct objects named (pending writers at their allocated length). */
    long distinctBytes() {
        return distinctBytes;
    }

    /** The attachments as size slots for {@link Envelopes}. */
    List<Envelopes.Slot> slots() {
        List<Envelopes.Slot> out = new ArrayList<>(items.size());
        for (Item i : items) {
            String ct = i.object != null ? i.object.contentType : i.writer.contentType;
            out.add(new Envelopes.Slot(i.name, storeId, ct));
        }
        return out;
    }

    /** True when a writer named here would be sealed by {@link #commit}. */
    boolean sealsOnSend() {
        for (Item i : items) {
            if (i.writer != null) {
                return true;
            }
        }
        return false;
    }

    /**
     * Seals each pending writer (it becomes a hold with one root) and returns the body to keep.
     * A seal the store refuses is thrown as is; a writer whose staging the store removed
     * (ARTIFACT_MISMATCH) is retired. With deferring {@code seals} the first run records the
     * writers and throws {@link Seals.Deferred} before anything changes.
     */
    Carried commit(Owners owners, Roots roots, byte[] payload, int deliveryBytes, Seals seals) throws BusException {
        for (Item i : items) {
            if (i.writer != null) {
                seals.want(i.writer, i.digest);
            }
        }
        seals.deferIfWanted();
        Map<Owner, SealedObject> sealedNow = new IdentityHashMap<>();
        List<Carried.Named> named = new ArrayList<>(items.size());
        LinkedHashSet<SealedObject> objects = new LinkedHashSet<>();
        for (Item i : items) {
            SealedObject o = i.object;
            if (o == null) {
                o = sealedNow.get(i.writer);
                if (o == null) {
                    o = seals.seal(owners, roots, i.writer, i.digest);
                    sealedNow.put(i.writer, o);
                }
            }
            named.add(new Carried.Named(i.name, o));
            objects.add(o);
        }
        return new Carried(payload, named, new ArrayList<>(objects), deliveryBytes);
    }
}
