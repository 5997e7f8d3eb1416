package io.spectrum.bench.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Each host benchmark runs and delivers, at toy sizes. Nothing here is timed: the figures are the
 * benchmarks' own output (docs/benchmarks.md).
 */
class HarnessSmokeTest {
    @Test
    void boardsOverRingLinksDeliverEveryValueToTheHost() throws Exception {
        try (BoardsBench b = new BoardsBench(4, "memory", HostCore.NARROW)) {
            for (int i = 0; i < 10; i++) {
                b.step();
            }
            assertEquals(10L * b.valuesPerStep(), b.values());
        }
    }

    @Test
    void boardsOverLoopbackUdpDeliverToTheHost() throws Exception {
        try (BoardsBench b = new BoardsBench(2, "udp", HostCore.NARROW)) {
            for (int i = 0; i < 10; i++) {
                b.step();
            }
            for (int i = 0; i < 100 && b.values() < 10L * b.valuesPerStep(); i++) {
                Thread.sleep(10);
                b.step();
            }
            assertTrue(b.values() >= 10L * b.valuesPerStep(), "values " + b.values());
        }
    }

    @Test
    void fanoutDeliversToEverySubscriberLocallyAndOverALink() {
        assertTrue(FanoutScale.local(HostCore.NARROW, 100, 0.05, 1) > 0);
        assertTrue(FanoutScale.local(HostCore.WIDE, 100, 0.05, 1) > 0);
        assertTrue(FanoutScale.remote(HostCore.NARROW, 50, 0.05, 1) > 0);
    }

    @Test
    void theHostJvmDeliversEachPublishToEverySubscriber() throws Exception {
        try (SpectrumSide s = new SpectrumSide("narrow", 3)) {
            HostVsMosquitto.Round r = HostVsMosquitto.round(s, 3, 0.3, 8);
            assertTrue(r.published() > 0);
            assertEquals(r.published() * 3, r.delivered());
            assertTrue(r.cpuNanos() >= 0);
            assertEquals(0, s.unexpectedReplies(), "the empty src asks for no reply");
        }
    }

    @Test
    void theUdpFloorRelaysEachPublishToEveryReceiver() throws Exception {
        try (FloorSide f = new FloorSide(3)) {
            HostVsMosquitto.Round r = HostVsMosquitto.round(f, 3, 0.3, 8);
            assertTrue(r.published() > 0);
            assertEquals(r.published() * 3, r.delivered());
        }
    }

    @Test
    void mosquittoDeliversEachPublishToEverySubscriber() throws Exception {
        Path mosquitto = MqttSide.binary();
        assumeTrue(mosquitto != null, "mosquitto is not installed");
        try (MqttSide m = new MqttSide(mosquitto, 3)) {
            HostVsMosquitto.Round r = HostVsMosquitto.round(m, 3, 0.3, 8);
            assertTrue(r.published() > 0);
            assertEquals(r.published() * 3, r.delivered());
        }
    }

    @Test
    void historyIngestDeliversEveryValueAndStoresEachOnce(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        HistoryIngestBench.Run off = HistoryIngestBench.run(false, 20, 10, 0.5, 0.1, dir);
        assertEquals(off.sent(), off.delivered(), "the live subscriber gets every value");
        HistoryIngestBench.Run on = HistoryIngestBench.run(true, 20, 10, 0.5, 0.1, dir);
        assertEquals(on.sent(), on.delivered(), "the live subscriber gets every value");
        assertEquals(0, on.dropped());
        assertEquals(on.written(), on.rows(), "every value written is a row of the file");
        assertTrue(on.rows() >= on.sent() && on.fileBytes() > 0, on.toString());
    }
}
