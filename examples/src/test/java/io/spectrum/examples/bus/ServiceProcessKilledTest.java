package io.spectrum.examples.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.client.bus.BusClient;
import io.spectrum.client.bus.CallResult;
import io.spectrum.link.local.LocalLink;
import io.spectrum.time.SystemClock;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.server.BusHost;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.wide.Grants;
import io.spectrum.bus.store.StoreConfig;
import io.spectrum.wire.BusError;
import io.spectrum.wire.Dispatch;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.UnixDomainSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14's service scenario with a real service process: two callers, the service process
 * killed (SIGKILL) while it holds a dispatched call, each caller told with the incarnation that
 * died, then the service restarted under a new incarnation that a pinned call to the old one does
 * not reach.
 */
class ServiceProcessKilledTest {
    @TempDir
    Path tmp;

    private BusHost host;
    private final List<Process> children = new ArrayList<>();
    private final List<BusClient> clients = new ArrayList<>();

    @AfterEach
    void stop() {
        children.forEach(Process::destroyForcibly);
        clients.forEach(BusClient::close);
        if (host != null) {
            host.close();
        }
    }

    private record Child(Process process, BufferedReader out, String incarnation) {
    }

    private Child startService(Path socket) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                HungServiceProcess.class.getName(), socket.toString()).redirectErrorStream(true).start();
        children.add(p);
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        assertTrue(line != null && line.startsWith("ready "), "the service said: " + line);
        return new Child(p, out, line.substring("ready ".length()));
    }

    @Test
    void aServiceKilledMidCallFailsBothCallersAndComesBackAsANewIncarnation() throws Exception {
        Path socket = tmp.resolve("bus.sock");
        LocalLink listener = LocalLink.listen(2, UnixDomainSocketAddress.of(socket), BusClient.linkConfig(),
                SystemClock.INSTANCE);
        host = BusHost.start(StoreConfig.builder(tmp.resolve("store")).build(), BusLimits.defaults(),
                id -> Grants.open(), List.of(listener));
        Child first = startService(socket);
        BusClient a = BusClient.connect(UnixDomainSocketAddress.of(socket), "caller.a", 5_000);
        BusClient b = BusClient.connect(UnixDomainSocketAddress.of(socket), "caller.b", 5_000);
        clients.add(a);
        clients.add(b);
        BusClient.PendingCall ca = a.call("work.slow", "run", "job-a".getBytes(StandardCharsets.UTF_8), first.incarnation());
        BusClient.PendingCall cb = b.call("work.slow", "run", "job-b".getBytes(StandardCharsets.UTF_8), null);
        assertTrue(first.out().readLine().startsWith("got "), "dispatched");
        assertTrue(first.out().readLine().startsWith("got "), "both dispatched");

        first.process().destroyForcibly(); // SIGKILL: no goodbye, only the socket's end
        assertTrue(first.process().waitFor(5, TimeUnit.SECONDS));
        for (BusClient.PendingCall c : List.of(ca, cb)) {
            CallResult r = c.result().get(5, TimeUnit.SECONDS);
            assertNotNull(r.failure(), c.callId() + " is told");
            assertEquals(first.incarnation(), r.serviceIncarnation(), "naming the incarnation that died");
            assertEquals(Dispatch.UNKNOWN, r.failure().dispatch(), "it was dispatched: it may have run");
        }

        Child second = startService(socket);
        assertNotEquals(first.incarnation(), second.incarnation());
        BusException pinned = assertThrows(BusException.class,
                () -> a.call("work.slow", "run", new byte[0], first.incarnation()));
        assertEquals(BusError.TARGET_CHANGED, pinned.code(), "no retry onto the replacement");
        BusClient.PendingCall fresh = b.call("work.slow", "run", "job-c".getBytes(StandardCharsets.UTF_8), null);
        assertEquals(second.incarnation(), fresh.serviceIncarnation());
        assertTrue(second.out().readLine().startsWith("got " + fresh.callId()));
    }
}
