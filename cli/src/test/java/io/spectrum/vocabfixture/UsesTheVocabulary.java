package io.spectrum.vocabfixture;

import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;

/** Positive control for {@code WireVocabularyTest}: reads FWD through FwdView and walks other containers freely. */
public final class UsesTheVocabulary {
    static final int SLOTS = 8;

    private UsesTheVocabulary() {
    }

    static int dst(FwdView f, TlvIndex x) {
        return f.wrap(x, 0) == WireError.OK && f.opcode() == FwdView.OP_READ ? f.dst() : TlvIndex.NONE;
    }

    static int suspendedSubscribers(TlvIndex x) {
        int n = 0;
        for (int c = x.firstChild(0); c != TlvIndex.NONE; c = x.nextSibling(c)) {
            if (x.type(c) == TlvType.SUBSCRIBER && (x.valueAsLong(c) & DeliveryPolicy.SUSPENDED) != 0) {
                n++;
            }
        }
        return n;
    }
}
