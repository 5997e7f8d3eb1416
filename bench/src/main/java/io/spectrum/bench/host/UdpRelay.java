package io.spectrum.bench.host;

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
 * sent {@code sendmmsg} at a time ({@link MmsgSocket}, the batched {@code UdpLink}'s path). Prints
 * {@code READY}, runs until its standard input closes.
 *
 * <p>Run by the benchmark: {@code java -cp bench/target/benchmarks.jar io.spectrum.bench.host.UdpRelay PORT [batched]}
 */
public final class UdpRelay {
    static final byte HELLO = 'H';

    private UdpRelay() {
    }

    /** Datagrams per {@code sendmmsg} of the batched relay. */
    static final int BATCH = 64;

    /**
     * Relays until standard input closes; the arguments are the loopback UDP port to bind and, for
     * batched sends, {@code batched}.
     */
    public static void main(String[] args) throws IOException {
        DatagramChannel ch = DatagramChannel.open();
        ch.bind(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[0])));
        MmsgSocket mmsg = args.length > 1 && args[1].equals("batched") ? MmsgSocket.attach(ch, BATCH, 2048, 2048) : null;
        Thread relay = new Thread(() -> relay(ch, mmsg), "relay");
        relay.setDaemon(true);
        relay.start();
        System.out.println("READY relay pid " + ProcessHandle.current().pid());
        System.out.flush();
        while (System.in.read() >= 0) {
            // EOF: the benchmark is done
        }
        ch.close();
    }

    private static void relay(DatagramChannel ch, MmsgSocket mmsg) {
        List<SocketAddress> receivers = new ArrayList<>();
        byte[] frame = new byte[2048];
        ByteBuffer b = ByteBuffer.allocateDirect(65536);
        try {
            while (true) {
                b.clear();
                SocketAddress from = ch.receive(b);
                b.flip();
                if (b.remaining() == 1 && b.get(0) == HELLO) {
                    if (!receivers.contains(from)) {
                        receivers.add(from);
                    }
                    continue;
                }
                if (mmsg != null) {
                    int len = b.remaining();
                    b.get(frame, 0, len);
                    for (int i = 0; i < receivers.size(); i++) {
                        InetSocketAddress to = (InetSocketAddress) receivers.get(i);
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
