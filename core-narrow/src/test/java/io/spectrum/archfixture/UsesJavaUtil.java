package io.spectrum.archfixture;

import java.util.ArrayList;

/** Negative-control fixture for the ArchUnit rule: a class that reaches into java.util. */
public final class UsesJavaUtil {
    private UsesJavaUtil() {
    }

    public static int size() {
        return new ArrayList<String>().size();
    }
}
