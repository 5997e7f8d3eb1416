package io.spectrum.vocabfixture;

import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;

/** Negative control for {@code WireVocabularyTest}: retypes protocol constants and walks FWD by hand. */
public final class RetypesTheVocabulary {
    public static final int OP_READ = 0;
    static final int SUSPENDED_BIT = 0x0200;
    static final int PATH_NOT_FOUND = 0x0020;

    private RetypesTheVocabulary() {
    }

    /** The dst of a FWD, found positionally: the walk FwdView owns. */
    static int dst(TlvIndex x) {
        if (x.type(0) != TlvType.FWD) {
            return TlvIndex.NONE;
        }
        return x.nextSibling(x.firstChild(0));
    }
}
