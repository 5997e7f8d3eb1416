package io.spectrum.bus.state;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import io.spectrum.bus.protocol.BusLimits;

/**
 * The base of the bus's scenario tests: each test class runs on the bus directly, and a subclass
 * of it per transport ({@code …InProcessTest}, {@code …OverSocketTest}) runs every test again
 * with its connections over that transport ({@link BusFixture.Via}).
 */
abstract class BusTest {
    private final List<BusFixture> fixtures = new ArrayList<>();

    /** How this class's connections reach the bus. */
    BusFixture.Via via() {
        return BusFixture.Via.DIRECT;
    }

    BusFixture fixture() {
        return fixture(BusLimits.defaults());
    }

    BusFixture fixture(BusLimits limits) {
        return fixture(limits, new MemoryArtifactStore());
    }

    BusFixture fixture(BusLimits limits, MemoryArtifactStore store) {
        BusFixture f = new BusFixture(limits, store, via());
        fixtures.add(f);
        return f;
    }

    @AfterEach
    void closeFixtures() {
        fixtures.forEach(BusFixture::close);
        fixtures.clear();
    }
}
