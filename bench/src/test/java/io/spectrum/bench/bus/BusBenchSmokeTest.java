package io.spectrum.bench.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bus benchmarks at toy sizes: every echo call comes back with its payload (the harness throws
 * otherwise), each row counts its calls, the handover reader sees the written bytes and the store
 * is empty after each round (the harness throws otherwise), and nothing is left behind; the
 * door fan-out delivers every value to every subscriber in order, both ways. Nothing here is timed.
 */
class BusBenchSmokeTest {
    @TempDir
    Path dir;

    @Test
    void everyCallOfARowComesBackOverBothTransports() throws Exception {
        for (RpcBench.Via via : RpcBench.Via.values()) {
            try (RpcBench.Bench b = new RpcBench.Bench(Files.createDirectory(dir.resolve(via.name())), via)) {
                RpcBench.Result one = b.row(1, 40, 10, 0, 2, 1);
                assertEquals(40, one.sortedRttNanos().length);
                RpcBench.Result two = b.row(2, 40, 10, 1_000, 2, 1);
                assertEquals(40, two.sortedRttNanos().length, "the service's name was free for the second row");
                assertTrue(two.callsPerSecond() > 0);
            }
        }
    }

    @Test
    void theBusHandoverDeliversTheBytesAndTheRunCleansUp() throws Exception {
        HandoverBench.main(new String[] {"sizesMiB=1", "rounds=1", "warmup=0", "dir=" + dir});
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(0, s.count());
        }
    }

    @Test
    void theSealStallRunMeasuresCallsAndSealsAndLeavesTheStoreEmpty() throws Exception {
        SealStallBench.Result r = SealStallBench.run(dir, 1 << 20, 2, 20);
        assertEquals(20, r.idleRtt().length);
        assertEquals(2, r.sealNanos().length);
        assertTrue(r.sealNanos()[0] > 0 && r.sealNanos()[1] > 0);
    }

    @Test
    void theDoorFanoutDeliversEveryValueToEverySubscriberInOrder_everyWay() throws Exception {
        DoorFanoutBench.Settings s = new DoorFanoutBench.Settings(4, 200, 8, 4, 100_000);
        try (DoorFanoutBench.Bench b = new DoorFanoutBench.Bench(dir, s.subscribers())) {
            for (DoorFanoutBench.Via via : DoorFanoutBench.Via.values()) {
                DoorFanoutBench.Result r = b.run(via, s);
                assertEquals(0, r.lost(), via + ": lost");
                assertEquals(0, r.disorder(), via + ": out of order");
                assertEquals(4 * 200, r.delivered(), via + ": every subscriber got every value");
            }
        }
    }
}
