package io.spectrum;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;

/**
 * Leaves out the test jars of other modules (core-narrow's and hw-tests' shared test helpers):
 * {@link ImportOption.DoNotIncludeTests} only recognises test-classes directories, and in a reactor
 * build past the package phase those helpers arrive as {@code *-tests.jar}.
 */
final class NoTestJars implements ImportOption {
    @Override
    public boolean includes(Location location) {
        return !location.contains("-tests.jar");
    }
}
