package io.spectrum.bench.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The handover benchmark runs at a toy size: both paths deliver the written bytes (the harness
 * throws when a reader's checksum differs) and it leaves nothing behind. Nothing here is timed.
 */
class ArtifactHandoverSmokeTest {
    @TempDir
    Path dir;

    @Test
    void bothPathsDeliverTheBytesAndTheRunCleansUp() throws Exception {
        ArtifactHandoverBench.main(new String[] {"sizesMiB=1", "rounds=1", "warmup=0", "dir=" + dir});
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(0, s.count());
        }
    }
}
