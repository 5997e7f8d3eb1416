package io.spectrum.bench.host;

import io.spectrum.link.udp.UdpLinkConfig;
import io.spectrum.link.udp.mmsg.MmsgSocket;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * The floor of {@link HostVsMosquitto}: a process that does nothing but what any one-datagram-per-
 * delivery server must, so its CPU per delivery is what the JDK and the kernel cost before a node
 * does any work. It learns receivers from a one-byte hello ({@link #HELLO}) and sends every other
 * datagram it receives, unchanged, to each of them: one {@code DatagramChannel.send} each from a
 * direct buffer (the call {@code UdpLink} makes without batching), or with {@code batched} queued and
 * sent {@code sendmmsg} at a time ({@link MmsgSocket}, the batched {@code UdpLink}'s path). With
 * {@code segmented} it takes every frame waiting (the one it blocked for and up to {@link #RUN} behind it)
 * and sends them to each receiver in turn, so each receiver's frames are a run that leaves as one
 * segmented send where there are at least as many as a UDP link's default run
 * ({@code UdpLinkConfig.DEFAULT_SEGMENT_RUN}): what a host whose I/O thread finds several values
 * queued for a subscriber sends. Prints {@code READY}, runs until its standard input closes.
 *
 * <p>Run by the benchmark: {@code java -cp bench/target/benchmarks.jar io.spectrum.bench.host.UdpRelay PORT [batched|segmented]}
 */
public final class UdpRelay {
    static final byte HELLO = 'H';

    private UdpRelay() {
    }

    /** Datagrams per {@code sendmmsg} of the batched relay. */
    static final int BATCH = 64;
    /** Frames the segmented relay takes at most per pass: the longest run a segmented send carries. */
    static final int RUN = MmsgSocket.MAX_SEGMENTS;

    /**
     * Relays until standard input closes; the arguments are the loopback UDP port to bind and, for
     * batched sends, {@code batched}.
     */
    public static void main(String[] args) throws IOException {
        DatagramChannel ch = DatagramChannel.open();
        ch.bind(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[0])));
        String mode = args.length > 1 ? args[1] : "on";
        Thread relay;
        if (mode.equals("segmented")) {
            // a receive takes at most a run's frames, and a send queue holds one receiver's run
            MmsgSocket mmsg = MmsgSocket.attach(ch, RUN, 2048, 2048).segmentRuns(UdpLinkConfig.DEFAULT_SEGMENT_RUN);
            relay = new Thread(() -> relayRuns(ch, mmsg), "relay");
        } else {
            MmsgSocket mmsg = mode.equals("batched") ? MmsgSocket.attach(ch, BATCH, 2048, 2048) : null;
            relay = new Thread(() -> relay(ch, mmsg), "relay");
        }
        relay.setDaemon(true);
        relay.start();
        System.out.println("READY relay pid " + ProcessHandle.current().pid());
        System.out.flush();
        while (System.in.read() >= 0) {
            // EOF: the benchmark is done
        }
        ch.close();
    }

    /** The segmented relay: blocks for a frame, takes those waiting behind it, sends each receiver its run. */
    private static void relayRuns(DatagramChannel ch, MmsgSocket mmsg) {
        List<InetSocketAddress> receivers = new ArrayList<>();
        byte[][] frames = new byte[RUN + 1][2048];
        int[] lens = new int[RUN + 1];
        ByteBuffer b = ByteBuffer.allocateDirect(65536);
        try {
            while (true) {
                int n = 0;
                if (!receiveOrLearn(ch, b, receivers)) {
                    lens[0] = b.remaining();
                    b.get(frames[0], 0, lens[0]);
                    n = 1;
                }
                int got = mmsg.receive(); // what waits behind it, without blocking: at most RUN
                for (int i = 0; i < got; i++) {
                    int len = mmsg.length(i);
                    if (len == 1) {
                        learn(receivers, mmsg.sender(i));
                    } else {
                        mmsg.copy(i, frames[n], len);
                        lens[n++] = len;
                    }
                }
                if (n == 0) {
                    continue;
                }
                for (int r = 0; r < receivers.size(); r++) {
                    InetSocketAddress to = receivers.get(r);
                    if (mmsg.queued() + Math.min(n, mmsg.batch()) > mmsg.batch()) {
                        mmsg.flush(); // a receiver's run is not cut by the end of the queue
                    }
                    for (int k = 0; k < n; k++) {
                        if (mmsg.full()) {
                            mmsg.flush();
                        }
                        mmsg.queue(true, MmsgSocket.keyHi(to.getAddress()), MmsgSocket.keyLo(to.getAddress()),
                                to.getPort(), MmsgSocket.keyScope(to.getAddress()), frames[k], 0, lens[k]);
                    }
                }
                mmsg.flush();
            }
        } catch (IOException e) {
            // closed: done
        }
    }

    /**
     * Blocks for one datagram into {@code b} (flipped): a hello adds its sender to the receivers and
     * answers true, a frame answers false.
     */
    private static boolean receiveOrLearn(DatagramChannel ch, ByteBuffer b, List<InetSocketAddress> receivers)
            throws IOException {
        b.clear();
        SocketAddress from = ch.receive(b);
        b.flip();
        if (b.remaining() == 1 && b.get(0) == HELLO) {
            learn(receivers, (InetSocketAddress) from);
            return true;
        }
        return false;
    }

    private static void learn(List<InetSocketAddress> receivers, InetSocketAddress from) {
        if (!receivers.contains(from)) {
            receivers.add(from);
        }
    }

    private static void relay(DatagramChannel ch, MmsgSocket mmsg) {
        List<InetSocketAddress> receivers = new ArrayList<>();
        byte[] frame = new byte[2048];
        ByteBuffer b = ByteBuffer.allocateDirect(65536);
        try {
            while (true) {
                if (receiveOrLearn(ch, b, receivers)) {
                    continue;
                }
                if (mmsg != null) {
                    int len = b.remaining();
                    b.get(frame, 0, len);
                    for (int i = 0; i < receivers.size(); i++) {
                        InetSocketAddress to = receivers.get(i);
                        if (mmsg.full()) {
                            mmsg.flush();
                        }
                        mmsg.queue(true, MmsgSocket.keyHi(to.getAddress()), MmsgSocket.keyLo(to.getAddress()),
                                to.getPort(), MmsgSocket.keyScope(to.getAddress()), frame, 0, len);
                    }
                    mmsg.flush();
                    continue;
                }
                for (int i = 0; i < receivers.size(); i++) {
                    b.rewind();
                    ch.send(b, receivers.get(i));
                }
            }
        } catch (IOException e) {
            // closed: done
        }
    }
}
