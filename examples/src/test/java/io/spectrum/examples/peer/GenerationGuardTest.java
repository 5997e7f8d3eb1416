package io.spectrum.examples.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.wire.WireError;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link GenerationGuard} on the demo board in this process. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GenerationGuardTest {
    @Test
    void theOldIdentityIsRefusedAndTheNewSubscriptionKeepsDelivering() {
        GenerationGuard.Outcome o = GenerationGuard.run(Duration.ofSeconds(10));
        assertTrue(o.first().ok() && o.second().ok(), o.toString());
        assertEquals(o.first().index(), o.second().index(), "the second subscription took the cleared position");
        assertNotEquals(o.first().generation(), o.second().generation(), "with a new generation");
        assertEquals(WireError.PATH_NOT_FOUND, o.oldIdentity());
        assertEquals(List.of("/watch/second"), o.routes(), "the old identity did not suspend it");
        assertEquals(WireError.OK, o.newIdentity());
    }
}
