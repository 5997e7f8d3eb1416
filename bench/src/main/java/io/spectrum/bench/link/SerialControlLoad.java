package io.spectrum.bench.link;

import io.spectrum.link.serial.InMemorySerialPort;
import io.spectrum.link.serial.SerialLink;
import io.spectrum.link.serial.SerialLinkConfig;
import io.spectrum.node.NarrowNode;
import io.spectrum.node.fwd.RemoteClient;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.time.SystemClock;
import io.spectrum.wire.TlvWriter;

import java.util.concurrent.locks.LockSupport;

/**
 * A board's publish rate at the host over a paced 115200-baud line, with and
 * without control load: a board node publishes three vertices at a fixed rate to a host node that
 * subscribed to them remotely; the control load is what a host and its dashboard add (a
 * {@code $node/caps} ping, a composed READ of {@code /board} (the tree walk's largest answer) and a
 * {@code :subscribers[]} list read every 20 ms, and a dashboard subscribe / unsubscribe every
 * 200 ms). Reported: deliveries per second arriving at the host against those published, for the
 * link's send path without a queue (the previous behaviour), with a first-in-first-out queue, and
 * with control yielding to data (the default).
 *
 * <pre>java -cp bench/target/benchmarks.jar io.spectrum.bench.link.SerialControlLoad [seconds] [hz per vertex]</pre>
 */
public final class SerialControlLoad {
    private static final int BAUD = 115_200;
    private static final String[] VERTICES = {"/temp", "/humidity", "/counter"};

    private SerialControlLoad() {
    }

    /**
     * Prints delivered against published values per send-path variant; arguments {@code [seconds] [hz per vertex]}
     * (defaults 5, 50).
     */
    public static void main(String[] args) {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int hz = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        System.out.printf("paced %d baud (%.0f B/s), %d vertices x %d Hz, %d s per run%n", BAUD, BAUD / 10.0,
                VERTICES.length, hz, seconds);
        for (boolean load : new boolean[] {false, true}) {
            run("no queue (before)", new SerialLinkConfig().sendQueueFrames(0), load, seconds, hz);
            run("FIFO queue of 8", new SerialLinkConfig().sendQueueFrames(8).controlYields(false), load, seconds, hz);
            run("control yields (default)", new SerialLinkConfig(), load, seconds, hz);
        }
    }

    static void run(String label, SerialLinkConfig cfg, boolean load, int seconds, int hz) {
        cfg.writeRetries(0).peerTimeoutMillis(0).pingIntervalMillis(3_600_000);
        InMemorySerialPort[] line = InMemorySerialPort.pair("paced", 1 << 16);
        SerialLink boardLink = new SerialLink(1, new PacedSerialPort(line[0], BAUD, 16), cfg, SystemClock.INSTANCE);
        SerialLink hostLink = new SerialLink(2, new PacedSerialPort(line[1], BAUD, 16), cfg, SystemClock.INSTANCE);
        NarrowNode board = new NarrowNode(NodeConfig.defaults());
        NarrowNode host = new NarrowNode(NodeConfig.builder().remoteWritesToUndeclared(true).build());
        board.attach(boardLink);
        host.attach(hostLink);
        byte[] buf = new byte[16];
        TlvWriter w = new TlvWriter();
        NodePath[] paths = new NodePath[VERTICES.length];
        for (int i = 0; i < VERTICES.length; i++) {
            paths[i] = NodePath.of(VERTICES[i]);
            board.write(paths[i], buf, 0, w.wrap(buf, 0, buf.length).value(0, 4).length());
        }
        NodePath[] extra = new NodePath[12];
        for (int i = 0; i < extra.length; i++) {
            extra[i] = NodePath.of("/extra/v" + i);
            board.write(extra[i], buf, 0, w.wrap(buf, 0, buf.length).value(i, 4).length());
        }
        long[] received = {0};
        board.poll();
        host.poll(); // opens both ports
        RemoteClient rc = host.remote();
        int[] subs = new int[VERTICES.length];
        for (int i = 0; i < VERTICES.length; i++) {
            NodePath mirror = NodePath.of("/mirror" + VERTICES[i]);
            host.subscribe(mirror, 0, (s, v, seq, stale) -> received[0]++);
            subs[i] = host.subscribeRemote(hostLink, 0, paths[i], mirror, 0);
        }
        // every run starts from the same state: all three admitted (re-sent until they are)
        long setupEnd = System.nanoTime() + 5_000_000_000L;
        long nextCheck = System.nanoTime();
        while (!allAcked(rc, subs) && System.nanoTime() - setupEnd < 0) {
            if (System.nanoTime() - nextCheck >= 0) {
                nextCheck += 200_000_000L;
                rc.verify(hostLink, 0);
            }
            if (board.poll() + host.poll() == 0) {
                LockSupport.parkNanos(50_000);
            }
        }
        if (!allAcked(rc, subs)) {
            throw new IllegalStateException(label + ": subscriptions not admitted: state " + rc.state(subs[0]) + " error "
                    + rc.error(subs[0]) + " sends " + rc.sends(subs[0]) + " host in " + hostLink.stats().framesIn()
                    + " board in " + boardLink.stats().framesIn() + " host open " + hostLink.isPortOpen());
        }
        NodePath caps = NodePath.of("/$node/caps");
        NodePath boardRoot = NodePath.of("/"); // the board's whole tree, composed
        int[] pending = new int[8];
        java.util.Arrays.fill(pending, -1);
        int refusedBefore = (int) boardLink.stats().sendRefused();
        long period = 1_000_000_000L / hz;
        long start = System.nanoTime();
        long warmEnd = start + 1_000_000_000L;
        long end = warmEnd + seconds * 1_000_000_000L;
        long nextPublish = start;
        long nextControl = start;
        long nextDashboard = start;
        int dashboard = -1;
        int k = 0;
        long published = 0;
        long receivedAtWarm = 0;
        long controlSent = 0;
        long value = 0;
        boolean warm = false;
        while (true) {
            long now = System.nanoTime();
            if (now - end >= 0) {
                break;
            }
            if (!warm && now - warmEnd >= 0) {
                warm = true;
                receivedAtWarm = received[0];
                published = 0;
                controlSent = 0;
            }
            if (now - nextPublish >= 0) {
                nextPublish += period;
                value++;
                for (NodePath p : paths) {
                    board.write(p, buf, 0, w.wrap(buf, 0, buf.length).value(value, 4).length());
                    published++;
                }
            }
            if (load && now - nextControl >= 0) {
                nextControl += 20_000_000L;
                for (int i = 0; i < pending.length; i++) {
                    if (pending[i] >= 0 && rc.requestState(pending[i]) == RemoteClient.DONE) {
                        rc.release(pending[i]);
                        pending[i] = -1;
                    }
                }
                controlSent += ask(pending, rc.read(hostLink, 0, caps), rc);
                controlSent += ask(pending, rc.read(hostLink, 0, boardRoot), rc);
                controlSent += ask(pending, rc.readList(hostLink, 0, paths[0]), rc);
            }
            if (load && now - nextDashboard >= 0) {
                nextDashboard += 200_000_000L;
                if (dashboard >= 0) {
                    int u = rc.unsubscribe(dashboard);
                    controlSent += ask(pending, u, rc);
                }
                dashboard = host.subscribeRemote(hostLink, 0, extra[k++ % extra.length], NodePath.of("/mirror/extra"), 0x20);
                controlSent++;
            }
            int n = board.poll() + host.poll();
            if (n == 0) {
                LockSupport.parkNanos(50_000);
            }
        }
        double secs = seconds;
        long got = received[0] - receivedAtWarm;
        System.out.printf("  %-26s control load %-3s: published %6.1f/s, delivered at the host %6.1f/s (%5.1f%%),"
                        + " control requests %5.1f/s, board link refused %d, board bytes out %d%n",
                label, load ? "on" : "off", published / secs, got / secs, 100.0 * got / Math.max(1, published),
                controlSent / secs, boardLink.stats().sendRefused() - refusedBefore, boardLink.stats().bytesOut());
        boardLink.close();
        hostLink.close();
    }

    private static boolean allAcked(RemoteClient rc, int[] subs) {
        for (int h : subs) {
            if (rc.state(h) != RemoteClient.ACKED) {
                return false;
            }
        }
        return true;
    }

    /** Keeps a request handle to release later; the oldest is dropped when all slots are taken. */
    private static int ask(int[] pending, int k, RemoteClient rc) {
        if (k < 0) {
            return 0;
        }
        for (int i = 0; i < pending.length; i++) {
            if (pending[i] < 0) {
                pending[i] = k;
                return 1;
            }
        }
        rc.release(pending[0]);
        pending[0] = k;
        return 1;
    }
}
