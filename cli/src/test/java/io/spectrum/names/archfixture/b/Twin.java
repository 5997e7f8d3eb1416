package io.spectrum.names.archfixture.b;

/** The second public {@code Twin}: {@code UniqueNamesTest}'s rule must name both. */
public final class Twin {
}
