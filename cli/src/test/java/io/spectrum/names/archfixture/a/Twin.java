package io.spectrum.names.archfixture.a;

/** A public class whose simple name another fixture package repeats: the negative control of {@code UniqueNamesTest}. */
public final class Twin {
}
