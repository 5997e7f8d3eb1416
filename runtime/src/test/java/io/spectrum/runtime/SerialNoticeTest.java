package io.spectrum.runtime;

import io.spectrum.link.Link;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.time.ManualClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A serial port the process could not open is named at start with the reason: the board still says
 * "ready" (the link keeps trying), so without this line nothing tells why the line stays silent.
 */
class SerialNoticeTest {
    @TempDir
    Path dir;

    @Test
    void aSerialPortThatIsNotOpenAtStartGetsOneLineWithItsReason() throws Exception {
        ManualClock clock = new ManualClock(0);
        NarrowNode node = new NarrowNode(NodeConfig.builder().clock(clock).build());
        // a file that is there but is no terminal: the open fails when the line's settings are set
        String device = java.nio.file.Files.writeString(dir.resolve("ttyNOT"), "").toString();
        Link link = LinkSpec.serial(1, device, 115200, new LinkSettings(), clock);
        try {
            List<String> w = LinkNotices.atStart(link, node);
            assertEquals(1, w.size(), String.valueOf(w));
            String line = w.get(0);
            assertTrue(line.startsWith("warning: serial " + device + "@115200 is not open: not a terminal (ENOTTY);"), line);
            assertTrue(line.contains("nothing is served over it until it opens"), line);
        } finally {
            link.close();
        }
    }
}
