package io.spectrum.bench.wide;

import org.junit.jupiter.api.Test;

/** WideScale runs through at a toy size (it checks its own edge counts and throws when they are wrong). */
class WideScaleSmokeTest {
    @Test
    void runsAtAToySize() {
        WideScale.main(new String[] {"vertices=2000", "rounds=1"});
    }
}
