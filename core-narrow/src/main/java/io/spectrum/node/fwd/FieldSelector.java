package io.spectrum.node.fwd;

import io.spectrum.wire.FieldView;
import io.spectrum.wire.Names;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.WireError;

/**
 * The request's FIELD selector, read through the codec's {@link FieldView} (levels of NAME then
 * 0..3 VALUEs; the generation is the codec's spelling): the first level's name entry, the level
 * count, and the first level's mode, index (-1: none) and generation (-1: none).
 */
final class FieldSelector {
    private final FieldView fieldView = new FieldView();
    int first;
    /** The name entries of the second and third level, or NONE (e.g. {@code :settings.app.unit}). */
    int second;
    int third;
    int levels;
    /** True when no level has an index or a list mode ({@code :a.b.c}, not {@code :a[1]}). */
    boolean scalar;
    int mode;
    int index;
    long gen;

    /**
     * Parses the FIELD at entry {@code f} of {@code x}. Adds the terminus rule that {@code [*]} is
     * only the first step under {@code subscribers}. Refusals: PATH_INVALID.
     */
    int parse(TlvIndex x, int f) {
        first = TlvIndex.NONE;
        second = TlvIndex.NONE;
        third = TlvIndex.NONE;
        levels = 0;
        scalar = false;
        mode = 0;
        index = -1;
        gen = -1;
        int r = fieldView.wrap(x, f);
        if (r != WireError.OK) {
            return WireError.PATH_INVALID;
        }
        levels = fieldView.levels();
        first = fieldView.nameEntry(0);
        second = levels > 1 ? fieldView.nameEntry(1) : TlvIndex.NONE;
        third = levels > 2 ? fieldView.nameEntry(2) : TlvIndex.NONE;
        mode = fieldView.mode(0);
        index = fieldView.index(0);
        gen = fieldView.generation(0);
        scalar = true;
        for (int i = 0; i < levels; i++) {
            scalar &= fieldView.mode(i) == FieldView.MODE_SCALAR;
            if (fieldView.mode(i) == FieldView.MODE_WILDCARD && (i != 0 || !x.payloadEquals(first, Names.SUBSCRIBERS))) {
                return WireError.PATH_INVALID; // [*] only as the first step under subscribers
            }
        }
        return WireError.OK;
    }
}
