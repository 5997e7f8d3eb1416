package io.spectrum.examples.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.client.bus.BusClient;
import io.spectrum.link.local.LocalLink;
import io.spectrum.time.SystemClock;
import io.spectrum.bus.server.BusHost;
import io.spectrum.bus.protocol.BusLimits;
import io.spectrum.bus.protocol.BusStats;
import io.spectrum.wide.Grants;
import io.spectrum.bus.store.StoreConfig;
import io.spectrum.bus.protocol.SubscriptionMode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.UnixDomainSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host-bus examples against a real {@link BusHost} on a temporary Unix socket, each client a
 * separate connection as a person's processes would be: the frame is verified by the viewer and
 * held once by the store, the calls answer the right sums, latest coalesces, and everything runs
 * twice on the same bus (the names, the service and the topic are free again after the first run).
 */
class BusExamplesTest {
    private static final long WAIT = 10_000;

    @TempDir
    Path tmp;

    private BusHost host;
    private Path socket;

    @BeforeEach
    void start() throws Exception {
        socket = tmp.resolve("bus.sock");
        LocalLink listener = LocalLink.listen(2, UnixDomainSocketAddress.of(socket), BusClient.linkConfig(),
                SystemClock.INSTANCE);
        host = BusHost.start(StoreConfig.builder(tmp.resolve("store")).build(), BusLimits.defaults(),
                name -> Grants.open(), List.of(listener));
    }

    @AfterEach
    void stop() {
        host.close();
    }

    /**
     * Waits until the bus has noticed the previous run's clients leave: a name is the bus's only
     * while its connection lives, and a closed socket reaches the bus a moment after close().
     */
    private void awaitNoConnections() throws InterruptedException {
        for (int i = 0; i < 500 && host.stats().connections() > 0; i++) {
            Thread.sleep(10);
        }
        assertEquals(0, host.stats().connections(), "the previous run's clients are gone");
    }

    @Test
    void theViewerVerifiesEachFrameAndTheStoreHoldsOneObjectUntilBothRelease() throws Exception {
        for (int run = 1; run <= 2; run++) {
            awaitNoConnections();
            try (FrameViewer viewer = new FrameViewer(Args.connect(socket, "viewer"), SubscriptionMode.BOUNDED);
                    FramePublisher camera = new FramePublisher(Args.connect(socket, "camera"))) {
                FramePublisher.Published p = camera.publish(run);
                assertEquals(1, p.subscribers(), "run " + run);
                FrameViewer.Frame f = viewer.next(WAIT);
                assertNotNull(f, "run " + run + ": the frame arrives");
                assertEquals(FramePublisher.FRAME_BYTES, f.length());
                assertEquals(64, f.digest().length());
                assertTrue(f.digestMatches(), "the mapped bytes hash to the ref's digest");
                assertTrue(f.pixelsMatch(), "they are the publisher's pixels for frame " + run);
                assertEquals(run, f.frame());
                assertTrue(f.line().contains("sha256 " + f.digest().substring(0, 16) + "… ok"), f.line());

                BusStats both = host.stats();
                assertEquals(1, both.sealedArtifacts(), "one object while both hold it");
                assertEquals(2, both.roots(), "the publisher's hold and the viewer's delivery");
                assertEquals(FramePublisher.FRAME_BYTES, both.storeBytes(), "no copy per holder");
                assertEquals(1, p.release());
                assertEquals(1, host.stats().sealedArtifacts(), "the viewer's delivery still holds it");
                assertEquals(1, f.consume());
                BusStats none = host.stats();
                assertEquals(0, none.sealedArtifacts(), "collected once both released");
                assertEquals(0, none.storeBytes());
                assertEquals(0, none.roots());
            }
        }
    }

    @Test
    void aSlowLatestViewerSeesTheNewestFrameAndHowManyItReplaced() throws Exception {
        for (int run = 1; run <= 2; run++) {
            awaitNoConnections();
            try (FrameViewer viewer = new FrameViewer(Args.connect(socket, "viewer"), SubscriptionMode.LATEST);
                    FramePublisher camera = new FramePublisher(Args.connect(socket, "camera"))) {
                camera.publish(1).release();
                FrameViewer.Frame first = viewer.next(WAIT);
                assertNotNull(first);
                assertEquals(1, first.frame());
                for (int n = 2; n <= 5; n++) { // the viewer holds frame 1: 2..4 are each replaced by the next
                    FramePublisher.Published p = camera.publish(n);
                    assertEquals(n > 2 ? 1 : 0, p.replaced(), "frame " + n);
                    p.release();
                }
                assertEquals(2, host.stats().sealedArtifacts(), "frame 1 in flight, frame 5 waiting; 2-4 collected");
                first.consume();
                FrameViewer.Frame newest = viewer.next(WAIT);
                assertNotNull(newest);
                assertEquals(5, newest.frame());
                assertEquals(3, newest.replaced(), "frames 2, 3 and 4 were never delivered");
                assertTrue(newest.digestMatches() && newest.pixelsMatch());
                assertTrue(newest.line().endsWith("3 replaced before it"), newest.line());
                newest.consume();
                assertNull(viewer.next(200), "nothing else");
                assertEquals(0, host.stats().sealedArtifacts());
            }
        }
    }

    @Test
    void theCallerGetsTheSumsAndACancelStateOfTheFour() throws Exception {
        for (int run = 1; run <= 2; run++) {
            awaitNoConnections();
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            AddCaller.Outcome o;
            try (AddService calc = new AddService(Args.connect(socket, "calc"));
                    BusClient caller = Args.connect(socket, "add-caller")) {
                o = AddCaller.run(caller, 12, new PrintStream(printed, true, StandardCharsets.UTF_8));
                List<String> sums = new ArrayList<>();
                for (long i = 1; i <= 12; i++) {
                    sums.add(Long.toString(i + i * i));
                }
                assertEquals(sums, o.answers(), "run " + run);
                assertTrue(Set.of("cancelled-before-dispatch", "execution-unknown", "completed", "call-gone")
                        .contains(o.cancelState()), o.cancelState());
                String out = printed.toString(StandardCharsets.UTF_8);
                assertTrue(out.startsWith("1+1 = 2 (answered by calc)\n"), out);
                assertTrue(out.contains("12+144 = 156"), out);
                assertTrue(out.contains("cancelled 40+2 at once: " + o.cancelState()), out);
                for (int i = 0; i < 200 && calc.served() < 12; i++) {
                    Thread.sleep(10);
                }
                assertTrue(calc.served() >= 12, "the service answered every call: " + calc.served());
            }
            awaitNoConnections();
            assertEquals(0, host.stats().services(), "the service's name is free for the next run");
        }
    }

    @Test
    void theServiceAnswersBadInputWithAnErrorNotACrash() {
        assertEquals("5", AddService.answer("2+3"));
        assertEquals("-1", AddService.answer("-3+2"));
        assertEquals("-5", AddService.answer("-3+-2"));
        assertTrue(AddService.answer("2*3").startsWith("error: expected a+b"));
        assertTrue(AddService.answer("x+3").startsWith("error: a and b must be integers"));
        assertTrue(AddService.answer("+").startsWith("error:"));
        assertTrue(AddService.answer("").startsWith("error:"));
        assertEquals("error: the sum overflows", AddService.answer(Long.MAX_VALUE + "+1"));
    }

    @Test
    void theMainsRunEndToEnd() throws Exception {
        String sock = socket.toString();
        int[] viewerRc = {-1};
        Thread viewer = new Thread(() -> viewerRc[0] = FrameViewer.run(new String[] {sock, "viewer", "bounded", "0", "3"}));
        viewer.start();
        for (int i = 0; i < 500 && host.stats().subscriptions() == 0; i++) {
            Thread.sleep(10);
        }
        assertEquals(0, FramePublisher.run(new String[] {sock, "camera", "3", "10"}));
        viewer.join(WAIT);
        assertTrue(!viewer.isAlive(), "the viewer saw its 3 frames and returned");
        assertEquals(0, viewerRc[0]);
        for (int i = 0; i < 200 && host.stats().sealedArtifacts() > 0; i++) {
            Thread.sleep(10);
        }
        assertEquals(0, host.stats().sealedArtifacts(), "every frame consumed and collected");

        assertEquals(1, AddCaller.run(new String[] {sock, "early-caller", "3"}), "no calc.add yet: NO_SERVICE, exit 1");
        try (AddService calc = new AddService(Args.connect(socket, "calc"))) {
            assertEquals(0, AddCaller.run(new String[] {sock, "add-caller", "3"}));
            // served counts after the reply is sent and consumed: the caller may return first
            for (int i = 0; i < 200 && calc.served() < 3; i++) {
                Thread.sleep(10);
            }
            assertTrue(calc.served() >= 3, "the service answered every call: " + calc.served());
        }
        assertEquals(2, AddCaller.run(new String[] {sock, "add-caller", "three"}), "a bad N");
        assertEquals(2, FrameViewer.run(new String[] {sock, "viewer", "sideways"}), "a bad mode");
        assertEquals(2, AddService.run(new String[0]), "no socket");
        assertEquals(1, FramePublisher.run(new String[] {tmp.resolve("nothing.sock").toString()}), "no bus there");
    }
}
