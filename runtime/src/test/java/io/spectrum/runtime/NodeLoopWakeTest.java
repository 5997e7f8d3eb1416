package io.spectrum.runtime;

import io.spectrum.link.serial.InMemorySerialPort;
import io.spectrum.link.serial.SerialLink;
import io.spectrum.link.serial.SerialLinkConfig;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import org.agrona.concurrent.AgentInvoker;
import org.junit.jupiter.api.Test;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The node loop sleeps until work comes: a datagram (selector) or a serial arrival (data event)
 * wakes it while its only timer deadline is an hour away on a clock that never moves, and a due
 * deadline runs the owner's step. Waits below are fail-safes, not timing assertions.
 */
class NodeLoopWakeTest {
    private static final long HOUR = 3_600_000_000_000L;

    /** FWD{READ, dst, src = /r}: what a peer sends to read a vertex. */
    private static byte[] readRequest(String path) {
        byte[] b = new byte[256];
        TlvWriter w = new TlvWriter(4).wrap(b, 0, b.length);
        w.begin(TlvType.FWD).value(0, 1).raw(NodePath.of(path).tlv()).raw(NodePath.of("/r").tlv()).end();
        return java.util.Arrays.copyOf(b, w.length());
    }

    private static void await(BooleanSupplier cond) throws InterruptedException {
        for (int i = 0; i < 20_000 && !cond.getAsBoolean(); i++) {
            Thread.sleep(1);
        }
        assertTrue(cond.getAsBoolean(), "condition not reached");
    }

    @Test
    void aDatagramWakesTheBlockedLoopWithoutATimerTick() throws Exception {
        ManualClock clock = new ManualClock(1_000);
        AtomicInteger steps = new AtomicInteger();
        NarrowNode node = new NarrowNode(NodeConfig.defaults());
        NodeLoop loop = new NodeLoop("wake", node, now -> {
            steps.incrementAndGet();
            return now + HOUR;
        }, clock, HOUR, 0);
        UdpLink link = UdpLink.listen(0, UdpLink.parseHostPort("127.0.0.1:0"), new UdpLinkConfig(), clock);
        loop.attach(link);
        node.write(NodePath.of("/x"), new byte[] {1, 0, 1, 0, 7}, 0, 5);
        loop.start();
        try (DatagramSocket peer = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            peer.setSoTimeout(20_000);
            await(() -> loop.agent().waits() >= 1); // asleep: the next deadline is an hour away
            byte[] req = readRequest("/x");
            for (int round = 1; round <= 3; round++) {
                long waitsBefore = loop.agent().waits();
                peer.send(new DatagramPacket(req, req.length, link.localAddress()));
                DatagramPacket answer = new DatagramPacket(new byte[512], 512);
                peer.receive(answer);
                assertEquals(TlvType.FWD, answer.getData()[0] & 0xFF, "the node answered the READ");
                assertEquals(round, link.stats().framesIn());
                await(() -> loop.agent().waits() > waitsBefore); // and went back to sleep
            }
            assertEquals(1, steps.get(), "no timer fired: the clock never reached a deadline");
        } finally {
            loop.close();
        }
    }

    @Test
    void aSerialArrivalWakesTheBlockedLoop() throws Exception {
        ManualClock clock = new ManualClock(1_000);
        InMemorySerialPort[] ends = InMemorySerialPort.pair("wake", 4096);
        SerialLinkConfig cfg = new SerialLinkConfig().peerTimeoutMillis(0);
        SerialLink boardSide = new SerialLink(0, ends[0], cfg, clock);
        SerialLink hostSide = new SerialLink(1, ends[1], cfg, clock);
        NarrowNode node = new NarrowNode(NodeConfig.defaults());
        node.write(NodePath.of("/x"), new byte[] {1, 0, 1, 0, 7}, 0, 5);
        NodeLoop loop = new NodeLoop("serial wake", node, null, clock, HOUR, 0);
        loop.attach(boardSide);
        loop.start();
        try {
            hostSide.poll((l, p, b, o, n) -> { }, 1); // opens the host end
            await(() -> ends[0].isOpen() && loop.agent().waits() >= 1);
            long before = boardSide.stats().framesOut();
            byte[] req = readRequest("/x");
            assertEquals(0, hostSide.send(0, req, 0, req.length));
            await(() -> boardSide.stats().framesOut() > before); // the loop woke and answered
            AtomicInteger got = new AtomicInteger();
            await(() -> {
                hostSide.poll((l, p, b, o, n) -> got.incrementAndGet(), 8);
                return got.get() >= 1;
            });
        } finally {
            loop.close();
            hostSide.close();
        }
    }

    @Test
    void theStepRunsWhenItsDeadlineComesAndTheLoopReportsTheNextOne() {
        ManualClock clock = new ManualClock(1_000);
        AtomicInteger steps = new AtomicInteger();
        NodeAgent agent = new NodeAgent("timers", new NarrowNode(NodeConfig.defaults()), clock, now -> {
            steps.incrementAndGet();
            return now + 100;
        }, 1_000);
        AgentInvoker invoker = new AgentInvoker(t -> { throw new IllegalStateException(t); }, null, agent);
        invoker.start();
        invoker.invoke();
        assertEquals(1, steps.get(), "first cycle runs the step");
        assertEquals(1_100, agent.nextDeadline(), "the step's deadline comes before housekeeping");
        clock.advanceNanos(99);
        invoker.invoke();
        assertEquals(1, steps.get(), "not due yet");
        clock.advanceNanos(1);
        invoker.invoke();
        assertEquals(2, steps.get(), "due");
        assertEquals(1_200, agent.nextDeadline());
        clock.advanceNanos(2_000);
        agent.awaitWork(); // the deadline has passed: returns at once instead of blocking
        invoker.invoke();
        assertEquals(3, steps.get());
        assertEquals(3_200, agent.nextDeadline());
        invoker.close();
    }

    @Test
    void aSubmittedTaskWakesTheBlockedLoop() throws Exception {
        ManualClock clock = new ManualClock(1_000);
        NodeLoop loop = new NodeLoop("task", new NarrowNode(NodeConfig.defaults()), null, clock, HOUR, 0);
        loop.start();
        try {
            await(() -> loop.agent().waits() >= 1);
            AtomicInteger ran = new AtomicInteger();
            loop.submit(ran::incrementAndGet);
            await(() -> ran.get() == 1);
        } finally {
            loop.close();
        }
    }
}
