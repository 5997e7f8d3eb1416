package io.spectrum.examples.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.time.SystemClock;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.junit.jupiter.api.Test;

/** {@link LinkByUri} over loopback UDP, and the factory's one-line refusals. */
class LinkByUriTest {
    private static long echo(String uri, long n) throws Exception {
        return LinkByUri.echo(uri, n, SystemClock.INSTANCE, new SleepingIdleStrategy(100_000), 10_000_000_000L);
    }

    @Test
    void aFrameGoesFromTheDialerToTheListenerAndItsAnswerComesBack() throws Exception {
        assertEquals(42, echo("udp://127.0.0.1:0", 41));
        assertEquals(8, echo("127.0.0.1:0", 7), "a bare HOST:PORT is udp://, as --udp takes it");
    }

    @Test
    void aUriTheFactoryCannotUseIsOneLineSayingWhatToWrite() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> echo("mqtt://broker:1883", 1));
        assertTrue(e.getMessage().startsWith("mqtt://broker:1883: no link is called mqtt://; write one of udp://"),
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> echo("udp://127.0.0.1:0?baud=9600", 1));
        assertTrue(e.getMessage().contains("udp:// takes no ?parameters, not ?baud"), e.getMessage());
    }
}
