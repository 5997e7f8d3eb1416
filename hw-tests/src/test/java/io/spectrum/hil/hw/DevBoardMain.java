package io.spectrum.hil.hw;

import io.spectrum.link.serial.SerialLink;
import io.spectrum.link.serial.SerialLinkConfig;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.TlvWriter;
import java.util.concurrent.locks.LockSupport;

/**
 * A stand-in for {@code spectrum board --serial DEVICE} used while the board command is not on this
 * branch: a NarrowNode on a SerialLink with the demo vertices, /board/counter and /board/temp
 * published every 200 ms. Same arguments as the board command.
 */
public final class DevBoardMain {
    public static void main(String[] args) {
        String device = args[2];
        int baud = Integer.parseInt(args[4]);
        NarrowNode node = new NarrowNode(new NodeConfig());
        // like the board command: probe a quiet host after 1 s, report it down (and evict its edges)
        // after 5 s of silence
        SerialLink link = SerialLink.open(1, device,
                new SerialLinkConfig().baud(baud).pingIntervalMillis(1000).peerTimeoutMillis(5000), SystemClock.INSTANCE);
        node.attach(link);
        byte[] ping = io.spectrum.hil.client.Wire.fwd(io.spectrum.hil.client.Wire.OP_READ,
                io.spectrum.hil.client.Wire.path("/$node/caps"), null, io.spectrum.hil.client.Wire.path("/board-ping"));
        int pingLen = ping.length;
        link.setLivenessProbe((l, peer) -> l.send(peer, ping, 0, pingLen));
        NodePath counter = NodePath.of("/board/counter");
        NodePath temp = NodePath.of("/board/temp");
        NodePath led = NodePath.of("/board/led");
        byte[] buf = new byte[64];
        TlvWriter w = new TlvWriter();
        w.wrap(buf, 0, buf.length).value(0, 1);
        node.write(led, buf, 0, w.length());
        long n = 0;
        long next = System.nanoTime();
        System.out.println("dev board on " + device);
        while (true) {
            int handled = node.poll();
            node.tick();
            long now = System.nanoTime();
            if (now - next >= 0) {
                next = now + 200_000_000L;
                n++;
                w.wrap(buf, 0, buf.length).value(n, 4);
                node.write(counter, buf, 0, w.length());
                w.wrap(buf, 0, buf.length).value(2000 + (n % 50), 2);
                node.write(temp, buf, 0, w.length());
            }
            if (handled == 0) {
                LockSupport.parkNanos(1_000_000L);
            }
        }
    }
}
