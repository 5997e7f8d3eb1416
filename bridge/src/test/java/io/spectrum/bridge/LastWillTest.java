package io.spectrum.bridge;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A bridge process killed (SIGKILL, no goodbye): the broker publishes its last will, $online = false. */
class LastWillTest {
    @Test
    void aKilledBridgeIsOfflineByItsLastWill() throws Exception {
        try (Mosquitto broker = Mosquitto.start()) {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                    BridgeChild.class.getName(), broker.url(), "doomed").redirectError(ProcessBuilder.Redirect.DISCARD).start();
            try {
                BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
                assertEquals("bridging", r.readLine());
                Fabric.until(broker, "spectrum/doomed/#", m -> m.containsKey("/doomed/counter")
                        && m.containsKey("/doomed/$online") && m.get("/doomed/$online").text().equals("true"), "the child online");
            } finally {
                child.destroyForcibly();
                child.waitFor(10, TimeUnit.SECONDS);
            }
            Fabric.until(broker, "spectrum/doomed/$online", m -> m.containsKey("/doomed/$online")
                    && m.get("/doomed/$online").text().equals("false"), "$online flipping to false");
        }
    }
}
