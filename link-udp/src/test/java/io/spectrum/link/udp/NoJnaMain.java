package io.spectrum.link.udp;

import io.spectrum.testing.Collector;
import io.spectrum.testing.Frames;
import io.spectrum.time.SystemClock;

import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * For a child JVM whose class path lacks JNA: a listener and a dialer exchange a frame each way
 * (the dialer's driver flushing, as the node loop does) and the main prints which path they took.
 */
public final class NoJnaMain {
    private NoJnaMain() {
    }

    public static void main(String[] args) throws Exception {
        UdpLink server = UdpLink.listen(1, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                new UdpLinkConfig(), SystemClock.INSTANCE);
        UdpLink client = UdpLink.dial(2, server.localAddress(), new UdpLinkConfig(), SystemClock.INSTANCE);
        System.out.println("batched=" + server.batchedIo() + "," + client.batchedIo());
        System.out.println("reason=" + UdpLink.batchUnavailableReason());
        byte[] f = Frames.value(5, 16);
        client.flush();
        client.send(0, f, 0, f.length);
        client.flush();
        Collector atServer = new Collector();
        Collector.pollUntil(server, atServer, 1);
        server.flush();
        server.send(atServer.peers.get(0), f, 0, f.length);
        server.flush();
        Collector atClient = new Collector();
        Collector.pollUntil(client, atClient, 1);
        System.out.println(atClient.frames.size() == 1 ? "ok" : "lost");
        client.close();
        server.close();
    }
}
