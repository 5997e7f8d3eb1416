package io.spectrum.examples.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spectrum.wire.WireError;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link BoardClient} against the demo board in this process. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BoardClientTest {
    @Test
    void theClientReadsTheNameSeesItsOwnWriteDeliveredAndIsRefusedAReadOnlyVertex() {
        BoardClient.Outcome o = BoardClient.run(Duration.ofSeconds(10));
        assertEquals("greenhouse", o.name());
        assertEquals(List.of("1"), o.ledDeliveries());
        assertEquals(WireError.ACCESS_DENIED, o.refusal(), "/temp is read-only: " + WireError.identity(o.refusal()));
    }
}
